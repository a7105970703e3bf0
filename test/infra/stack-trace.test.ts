import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { functionBuildOptions } from '../../lib/constructs/function-bundle';
import { mapStackTrace, stackOf } from '../../lib/stack-trace/map-stack-trace';
import { functionBundles, rebuiltSourceMap } from '../../lib/stack-trace/rebuilt-bundle';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** What a deployed function logs: the stack of its map-less bundle failing at import (no TABLE_NAME). */
const deployedStack = async (entry: string): Promise<string> => {
  const dir = mkdtempSync(join(tmpdir(), 'pas-stack-'));
  try {
    const result = await build({
      ...functionBuildOptions,
      absWorkingDir: projectRoot,
      entryPoints: [entry],
      outfile: join(dir, 'index.mjs'),
      write: false,
    });
    const bundle = result.outputFiles.find((file) => file.path.endsWith('index.mjs'));
    writeFileSync(join(dir, 'index.mjs'), bundle?.text ?? '');
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
    expect(bundles.get('projects/get')).toEqual({ entry: join(projectRoot, 'functions/handlers/projects/get.ts'), external: [] });
    expect(bundles.get('workers/dispatch')?.external).toEqual([]);
    expect(bundles.get('workers/security-job')?.external).toContain('typescript');
  });

  it("maps a deployed bundle's stack to the source line that threw and the line that called it", async () => {
    const bundle = bundles.get('projects/get');
    if (!bundle) throw new Error('projects/get is not a function of the app');
    const stack = await deployedStack(bundle.entry);
    expect(stack).toMatch(/Error: TABLE_NAME is not set\n\s+at \S+ \(file:\/\/\S+index\.mjs:\d+:\d+\)/);

    const mapped = mapStackTrace(stackOf(stack), await rebuiltSourceMap(projectRoot, bundle), projectRoot).split('\n');
    const frames = mapped.filter((line) => line.trim().startsWith('at ')).slice(0, 2);
    expect(sourceLineAt(frames[0] ?? '')).toContain("throw new Error('TABLE_NAME is not set')");
    expect(frames[1]).toContain('functions/handlers/projects/get.ts:');
    expect(sourceLineAt(frames[1] ?? '')).toContain('tableFromEnvironment()');
    expect(mapped.join('\n')).not.toContain('index.mjs');
  });

  it('takes the JSON log line a function wrote, or the stack as text', () => {
    const stack = 'Error: boom\n    at x (file:///var/task/index.mjs:1:10)';
    expect(stackOf(JSON.stringify({ level: 'ERROR', message: 'unexpected failure', error: { name: 'Error', stack } }))).toBe(stack);
    expect(stackOf(stack)).toBe(stack);
  });
});
