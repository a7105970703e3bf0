import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { apiUrlOf } from '../../../bin/api/index';
import {
  locateRuntime,
  removeRuntimeInfo,
  runtimeLookupProblem,
  writeRuntimeInfo,
  type RuntimeInfo,
} from '../../../lib/local/runtime-file';

const run = promisify(execFile);

const infoOf = (port: number): RuntimeInfo => ({
  apiUrl: `http://localhost:${port}/v1`,
  dynamodbEndpoint: 'http://127.0.0.1:1',
  tableName: 't',
  region: 'us-east-1',
  pid: process.pid,
});

describe('how the CLI finds the local runtime', () => {
  let root: string;
  let registry: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'runtime-lookup-'));
    registry = join(root, 'registry');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('finds the only runtime running with a custom DATA_DIR without being told', async () => {
    const custom = join(root, 'custom-data');
    await (await import('node:fs/promises')).mkdir(custom);
    await writeRuntimeInfo(custom, infoOf(4321), registry);
    const lookup = await locateRuntime({}, registry);
    // The checkout's default folder may hold a runtime of the developer's own: only assert when it does not.
    if (lookup.kind === 'found' && lookup.foundBy === 'default') return;
    expect(lookup).toMatchObject({ kind: 'found', dataDir: custom, foundBy: 'registry', info: { apiUrl: 'http://localhost:4321/v1' } });
    await removeRuntimeInfo(custom, registry);
    expect(await readdir(registry)).toEqual([]);
  });

  it("gives the API commands that runtime's URL too, as it gives the admin commands its table", async () => {
    const custom = join(root, 'custom-data');
    await (await import('node:fs/promises')).mkdir(custom);
    await writeRuntimeInfo(custom, infoOf(4321), registry);
    if ((await locateRuntime({}, registry)).kind !== 'found') throw new Error('the runtime should be found');
    const saved = { ...process.env };
    try {
      delete process.env.DATA_DIR;
      delete process.env.SERVICE_API_URL;
      process.env.LOCAL_RUNTIME_REGISTRY = registry;
      const lookup = await locateRuntime();
      if (lookup.kind === 'found' && lookup.foundBy === 'default') return;
      expect(await apiUrlOf(undefined)).toBe('http://localhost:4321/v1');
      expect(await apiUrlOf('http://127.0.0.1:9/v1/')).toBe('http://127.0.0.1:9/v1');
    } finally {
      process.env = saved;
      await removeRuntimeInfo(custom, registry);
    }
  });

  it('asks for DATA_DIR when several run, and says how when none runs there', async () => {
    const fs = await import('node:fs/promises');
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    await fs.mkdir(a);
    await fs.mkdir(b);
    await writeRuntimeInfo(a, infoOf(1111), registry);
    await writeRuntimeInfo(b, infoOf(2222), registry);
    const lookup = await locateRuntime({}, registry);
    if (lookup.kind === 'found' && lookup.foundBy === 'default') return;
    expect(lookup).toEqual({ kind: 'several', dataDirs: expect.arrayContaining([a, b]) });
    if (lookup.kind !== 'several') return;
    expect(runtimeLookupProblem(lookup)).toContain(`DATA_DIR=${a} npm run cli`);

    const elsewhere = await locateRuntime({ DATA_DIR: join(root, 'nothing-here') }, registry);
    expect(elsewhere).toEqual({ kind: 'none', dataDir: join(root, 'nothing-here') });
    if (elsewhere.kind !== 'none') return;
    expect(runtimeLookupProblem(elsewhere)).toContain(`DATA_DIR=${join(root, 'nothing-here')} npm start`);
    expect(await locateRuntime({ DATA_DIR: a }, registry)).toMatchObject({ kind: 'found', dataDir: a, foundBy: 'DATA_DIR' });
  });
});

describe('the CLI command line', () => {
  it.each([['--expires-in-days', '-1'], ['--expires-in-days=-1'], ['--expires-in-days', '0'], ['--expires-in-days', 'soon']])(
    'refuses %s %s with a clear message and exit code 2, no stack trace',
    async (...args) => {
      const failure = await run(
        process.execPath,
        [
          '--conditions=source',
          '--import',
          'tsx',
          'bin/cli.ts',
          'keys',
          'create',
          '--type',
          'live',
          '--scopes',
          'read:projects',
          '--name',
          'x',
          ...args,
        ],
        {
          env: { ...process.env, DATA_DIR: join(tmpdir(), 'no-runtime-here'), LOCAL_RUNTIME_REGISTRY: join(tmpdir(), 'no-registry-here') },
        },
      ).catch((error: { code: number; stderr: string }) => error);
      expect(failure).toMatchObject({ code: 2 });
      const stderr = (failure as { stderr: string }).stderr;
      expect(stderr).toMatch(/--expires-in-days must be a whole number of days from 1 to 366/);
      expect(stderr).not.toMatch(/\n\s+at /);
    },
  );
});
