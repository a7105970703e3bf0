import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { SourceMapPayload } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { functionBuildOptions } from '../../lib/constructs/function-bundle';
import { mapStackTrace, stackOf } from '../../lib/stack-trace/map-stack-trace';
import { functionBundles, rebuiltSourceMaps } from '../../lib/stack-trace/rebuilt-bundle';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** What a deployed function logs: the stack of its map-less bundle failing at import (no TABLE_NAME). */
const deployedStack = async (entry: string): Promise<string> => {
  const dir = mkdtempSync(join(tmpdir(), 'pas-stack-'));
  try {
    await build({ ...functionBuildOptions, absWorkingDir: projectRoot, entryPoints: [entry], outdir: dir });
    return await new Promise((resolve) =>
      execFile(
        process.execPath,
        ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(join(dir, 'index.mjs')).href)})`],
        { env: { PATH: process.env.PATH ?? '', AWS_REGION: 'us-east-1' } },
        // Node prints the failing line of the bundle first; the log has the stack alone.
        (_error, _stdout, stderr) => resolve(stderr.slice(stderr.indexOf('Error: '))),
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const sourceLineAt = (frame: string): string => {
  const [, file, line] = /\(?([\w./-]+\.ts):(\d+):\d+\)?$/.exec(frame.trim()) ?? [];
  if (!file || !line) throw new Error(`not a source frame: ${frame}`);
  return readFileSync(join(projectRoot, file), 'utf8').split('\n')[Number(line) - 1] ?? '';
};

describe('npm run stack-trace', () => {
  const bundles = functionBundles(projectRoot);

  it("knows every function's handler and what its bundle leaves out", () => {
    expect(bundles.get('projects/get')).toEqual({
      entry: join(projectRoot, 'functions/handlers/projects/get.ts'),
      external: [],
      shippedModules: {},
    });
    expect(bundles.get('workers/dispatch')?.external).toEqual([]);
    expect(bundles.get('workers/security-job')?.external).toContain('typescript');
  });

  it("maps a deployed bundle's stack, whichever of its files a frame names, to the source line that threw and the line that called it", async () => {
    const bundle = bundles.get('projects/get');
    if (!bundle) throw new Error('projects/get is not a function of the app');
    const stack = await deployedStack(bundle.entry);
    expect(stack).toMatch(/Error: TABLE_NAME is not set\n\s+at \S+ \(file:\/\/\S+\.mjs:\d+:\d+\)/);

    const maps = await rebuiltSourceMaps(projectRoot, bundle);
    expect(maps.size).toBeGreaterThan(1);
    const mapped = mapStackTrace(stackOf(stack), maps, projectRoot).split('\n');
    const frames = mapped.filter((line) => line.trim().startsWith('at ')).slice(0, 2);
    expect(sourceLineAt(frames[0] ?? '')).toContain("throw new Error('TABLE_NAME is not set')");
    expect(frames[1]).toContain('functions/handlers/projects/get.ts:');
    expect(sourceLineAt(frames[1] ?? '')).toContain('tableFromEnvironment()');
    expect(mapped.join('\n')).not.toMatch(/\.mjs:\d+/);
  });

  it("maps a frame in a chunk with that chunk's map, and leaves a file of no map as it is", () => {
    const map = (source: string): SourceMapPayload => ({
      version: 3,
      file: '',
      sourceRoot: '',
      sources: [source],
      sourcesContent: [],
      names: [],
      mappings: 'AAAA',
    });
    const maps = new Map([
      ['index.mjs', map('functions/handlers/a.ts')],
      ['chunk-ABC.mjs', map('functions/adapters/b.ts')],
    ]);
    const stack =
      'Error: boom\n    at x (file:///var/task/chunk-ABC.mjs:1:1)\n    at y (/var/task/index.mjs:1:1)\n    at z (/var/task/other.mjs:1:1)';
    expect(mapStackTrace(stack, maps, projectRoot).split('\n').slice(1)).toEqual([
      '    at x (functions/adapters/b.ts:1:1)',
      '    at y (functions/handlers/a.ts:1:1)',
      '    at z (/var/task/other.mjs:1:1)',
    ]);
  });

  it('takes the JSON log line a function wrote, or the stack as text', () => {
    const stack = 'Error: boom\n    at x (file:///var/task/index.mjs:1:10)';
    expect(stackOf(JSON.stringify({ level: 'ERROR', message: 'unexpected failure', error: { name: 'Error', stack } }))).toBe(stack);
    expect(stackOf(stack)).toBe(stack);
  });
});
