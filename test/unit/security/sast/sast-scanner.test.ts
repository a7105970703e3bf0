import { existsSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultParallelism, poolSize } from '../../../../functions/engines/scanners/sast/lint-pool';
import { sastScanner } from '../../../../functions/engines/scanners/sast/sast-scanner';
import type { RawFinding } from '../../../../functions/core/security/scanner';
import { tempDirs, writeTree } from '../../workspace/temp-dir';
import { cleanFiles, insecureFiles, lineOf, planted } from './fixtures';

const dirs = tempDirs();
afterAll(() => dirs.removeAll());

const scan = async (files: Record<string, string | Buffer>) => {
  const root = await dirs.make('sast-');
  await writeTree(root, files);
  return { root, result: await sastScanner().scan(root) };
};

const brief = (f: RawFinding) => `${f.location.path}:${f.location.line} ${f.rule_id} ${f.severity}`;

describe('sast scanner: planted issues', () => {
  let findings: RawFinding[];
  let coverage: Awaited<ReturnType<typeof scan>>['result']['coverage'];
  let errors: string[];

  beforeAll(async () => {
    const { result } = await scan(insecureFiles);
    ({ findings, coverage, errors } = result);
  });

  it('finds every planted issue with its rule, severity, path and line — and nothing else', () => {
    const expected = planted.map((p) => `${p.path}:${lineOf(insecureFiles[p.path]!, p.marker)} ${p.rule} ${p.severity}`);
    expect(findings.map(brief).sort()).toEqual(expected.sort());
  });

  it('fills every field of a finding', () => {
    const evalJs = findings.find((f) => f.rule_id === 'no-eval' && f.location.path === 'src/handlers.js');
    expect(evalJs).toEqual({
      type: 'sast',
      rule_id: 'no-eval',
      severity: 'high',
      title: 'Code is evaluated with eval()',
      description: expect.stringMatching(/eval/) as unknown as string,
      location: { path: 'src/handlers.js', line: lineOf(insecureFiles['src/handlers.js']!, 'eval(userInput)') },
      snippet: 'no-eval src/handlers.js: const result = eval(userInput);',
      excerpt: 'const result = eval(userInput);',
      details: { column: 18, language: 'JavaScript' },
    });
    for (const f of findings) {
      expect(f.title.length).toBeGreaterThan(10);
      expect(f.description.length).toBeGreaterThan(0);
      expect(f.snippet.startsWith(`${f.rule_id} ${f.location.path}: `)).toBe(true);
      expect(f.snippet).not.toMatch(/:\d+\b/);
    }
  });

  it('normalises literals in the snippet and keeps the source line in the excerpt', () => {
    const timer = findings.find((f) => f.rule_id === 'no-implied-eval' && f.location.path === 'src/handlers.js');
    expect(timer?.snippet).toBe('no-implied-eval src/handlers.js: setTimeout("S", 0);');
    expect(timer?.excerpt).toBe('setTimeout("refresh()", 1000);');
    const exec = findings.find((f) => f.rule_id === 'security/detect-child-process' && f.location.path === 'src/handlers.js');
    expect(exec?.snippet).toBe('security/detect-child-process src/handlers.js: child_process.exec(`S${dir}`, () => {});');
  });

  it('reports JavaScript and TypeScript as covered, nothing as not covered, no error', () => {
    expect(coverage).toEqual({ files_scanned: 4, covered: ['JavaScript', 'TypeScript'], not_covered: [] });
    expect(errors).toEqual([]);
  });
});

describe('sast scanner: clean code', () => {
  it('yields no finding on ordinary modern JS/TS (handlers, components, fs with constant paths, safe regexes)', async () => {
    const { result } = await scan(cleanFiles);
    expect(result.findings.map((f) => `${brief(f)}: ${f.excerpt}`)).toEqual([]);
    expect(result.errors).toEqual([]);
    expect(result.coverage).toEqual({
      files_scanned: Object.keys(cleanFiles).length,
      covered: ['JavaScript', 'TypeScript'],
      not_covered: [],
    });
  });

  it('reports non-literal sinks only for request input', async () => {
    const { result } = await scan({
      'a.js': `import fs from 'node:fs';
import path from 'node:path';
export function fromParameter(file) { return fs.readFileSync(file, 'utf8'); }
export function fromRequest(req) { return fs.readFileSync(path.join('/srv/files', req.params.name), 'utf8'); }
export function confined(req) { return fs.readFileSync(path.join('/srv/files', path.basename(req.params.name)), 'utf8'); }
export function viaVariable(event) {
  const { key } = JSON.parse(event.body);
  const target = '/tmp/' + key;
  return fs.readFileSync(target);
}
export function lambdaQuery(e) { return fs.readFileSync(e.queryStringParameters.file); }
`,
    });
    expect(result.findings.map((f) => [f.rule_id, f.location.line])).toEqual([
      ['security/detect-non-literal-fs-filename', 4],
      ['security/detect-non-literal-fs-filename', 9],
      ['security/detect-non-literal-fs-filename', 11],
    ]);
  });

  it('reports a timing-unsafe comparison only against request input', async () => {
    const { result } = await scan({
      'auth.ts': `export function check(req: { headers: Record<string, string> }, token: string, expected: string): boolean {
  if (token === undefined) return false;
  if (token === expected) return true;
  if (token === req.headers.authorization) return true;
  return false;
}
`,
    });
    expect(result.findings.map((f) => [f.rule_id, f.severity, f.location.line])).toEqual([
      ['security/detect-possible-timing-attacks', 'low', 4],
    ]);
  });
});

describe('sast scanner: coverage', () => {
  it('reports other programming languages as not covered, never clean', async () => {
    const { result } = await scan({
      'app/main.py': 'import os\nos.system(input())\n',
      'app/util.py': 'def f():\n    return 1\n',
      'cmd/main.go': 'package main\n\nfunc main() {}\n',
      'styles/site.css': 'body { color: red; }\n',
      'README.md': '# readme\n',
      'index.js': 'export const x = 1;\n',
    });
    expect(result.findings).toEqual([]);
    expect(result.coverage).toEqual({
      files_scanned: 1,
      covered: ['JavaScript'],
      not_covered: [
        { kind: 'Python', files: 2, reason: 'no SAST scanner for Python in this service' },
        { kind: 'Go', files: 1, reason: 'no SAST scanner for Go in this service' },
      ],
    });
  });

  it('covers nothing when there is no JavaScript or TypeScript', async () => {
    const { result } = await scan({ 'main.rb': 'puts 1\n', 'lib.rs': 'fn main() {}\n' });
    expect(result.coverage).toEqual({
      files_scanned: 0,
      covered: [],
      not_covered: [
        { kind: 'Ruby', files: 1, reason: 'no SAST scanner for Ruby in this service' },
        { kind: 'Rust', files: 1, reason: 'no SAST scanner for Rust in this service' },
      ],
    });
  });

  it('skips node_modules, minified bundles and files over 1 MiB, and says so', async () => {
    const bundle = `${'var a=1;'.repeat(40)}eval(a);\n`.repeat(20);
    const big = `export const data = ${JSON.stringify('x'.repeat(1024 * 1024))};\neval(data);\n`;
    const { result } = await scan({
      'node_modules/pkg/index.js': 'eval(x);\n',
      'node_modules/pkg/package.json': '{}',
      'public/vendor.min.js': 'eval(x);\n',
      'public/bundle.js': bundle,
      'src/big.js': big,
      'src/ok.ts': 'export const ok = true;\n',
    });
    expect(result.findings).toEqual([]);
    expect(result.coverage).toEqual({
      files_scanned: 1,
      covered: ['TypeScript'],
      not_covered: [
        { kind: 'JavaScript (minified)', files: 2, reason: 'minified bundles are generated code: not analysed' },
        { kind: 'node_modules', files: 2, reason: 'installed third-party packages are not analysed (the dependencies scan covers them)' },
        { kind: 'JavaScript (over 1 MiB)', files: 1, reason: 'files larger than 1 MiB are not analysed' },
      ],
    });
  });

  it('counts a file that cannot be parsed as an error, not a finding, and goes on', async () => {
    const { result } = await scan({
      'src/broken.js': 'const x = ;\neval(x);\n',
      'src/broken.ts': 'export function f(: string {\n',
      'src/fine.js': 'export function f(code) { return eval(code); }\n',
    });
    expect(result.findings.map(brief)).toEqual(['src/fine.js:1 no-eval high']);
    expect(result.errors).toEqual([
      expect.stringMatching(/^could not parse: src\/broken\.js: Unexpected token ; \(line 1\)$/),
      expect.stringMatching(/^could not parse: src\/broken\.ts: .+ \(line 1\)$/),
    ]);
    expect(result.coverage.files_scanned).toBe(1);
    expect(result.coverage.not_covered).toEqual([
      { kind: 'JavaScript (could not be parsed)', files: 1, reason: 'files that could not be parsed are not analysed' },
      { kind: 'TypeScript (could not be parsed)', files: 1, reason: 'files that could not be parsed are not analysed' },
    ]);
  });

  it('parses a .js script that is not a module as CommonJS', async () => {
    const { result } = await scan({ 'script.js': "if (typeof window === 'undefined') return;\nwith (Math) eval(PI);\n" });
    expect(result.errors).toEqual([]);
    expect(result.findings.map(brief)).toEqual(['script.js:2 no-eval high']);
  });
});

describe('sast scanner: fingerprints', () => {
  const source = `export function run(code, other) {
  eval(code);
  return other;
}
`;

  it('keeps the snippet when the code moves to another line, and changes it for a different call', async () => {
    const { root, result: before } = await scan({ 'src/run.js': source });
    await writeFile(join(root, 'src/run.js'), `\n// moved\n${source}`);
    const after = await sastScanner().scan(root);
    await writeFile(join(root, 'src/run.js'), source.replace('eval(code)', 'eval(other)'));
    const changed = await sastScanner().scan(root);

    expect(before.findings).toHaveLength(1);
    expect(after.findings).toHaveLength(1);
    expect(after.findings[0]!.location.line).toBe((before.findings[0]!.location.line ?? 0) + 2);
    expect(after.findings[0]!.snippet).toBe(before.findings[0]!.snippet);
    expect(changed.findings[0]!.snippet).not.toBe(before.findings[0]!.snippet);
  });

  it('keeps the snippet when only a literal changes', async () => {
    const { root, result: before } = await scan({ 'a.js': 'setTimeout("tick()", 100);\n' });
    await writeFile(join(root, 'a.js'), "setTimeout('tock()', 250);\n");
    const after = await sastScanner().scan(root);
    expect(after.findings[0]!.snippet).toBe(before.findings[0]!.snippet);
  });

  it('numbers lines as git does, whatever ESLint takes for a line break (a lone CR, U+2028, U+2029) and CRLF files alike', async () => {
    const { result } = await scan({
      'src/cr.js': 'export const a = `one\rtwo`;\nexport const run = (x) =>\n  eval(x);\n',
      'src/ls.js': "export const b = 'one\u2028two\u2029three';\nexport const run = (x) =>\n  eval(x);\n",
      'src/crlf.js': 'export const c = 1;\r\nexport const run = (x) =>\r\n  eval(x);\r\n',
    });
    expect(result.findings.map((f) => [f.location.path, f.location.line, f.excerpt]).sort()).toEqual([
      ['src/cr.js', 3, 'eval(x);'],
      ['src/crlf.js', 3, 'eval(x);'],
      ['src/ls.js', 3, 'eval(x);'],
    ]);
  });

  it('gives identical lines of one file distinct snippets', async () => {
    const { result } = await scan({ 'a.js': 'export function f(a) {\n  eval(a);\n  eval(a);\n}\n' });
    expect(result.findings.map((f) => f.snippet)).toEqual(['no-eval a.js: eval(a);', 'no-eval a.js: eval(a); #2']);
  });
});

describe('sast scanner: the scanned repository configures nothing', () => {
  it('loads no eslint config or plugin of the repository and honours no inline directive', async () => {
    const root = await dirs.make('sast-config-');
    const marker = join(root, 'LOADED');
    const evil = `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'loaded');\nexport default {};\n`;
    const evilCjs = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'loaded');\nmodule.exports = {};\n`;
    await writeTree(root, {
      'eslint.config.js': `import plugin from './evil-plugin.js';\nexport default [{ plugins: { evil: plugin }, rules: { 'no-eval': 'off' } }, { ignores: ['**/*'] }];\n`,
      'eslint.config.mjs': evil,
      'eslint.config.cjs': evilCjs,
      '.eslintrc.cjs': evilCjs,
      'eslint.config.ts': evil,
      'evil-plugin.js': evil,
      '.eslintrc.json': JSON.stringify({ plugins: ['evil'], rules: { 'no-eval': 'off' } }),
      '.eslintignore': '*\n',
      'package.json': JSON.stringify({ type: 'module', eslintConfig: { rules: { 'no-eval': 'off' } } }),
      'src/app.js': `/* eslint-disable */\n// eslint-disable-next-line no-eval\nexport const run = (code) => eval(code); // eslint-disable-line\n/* eslint no-eval: "off" */\n`,
    });

    const result = await sastScanner().scan(root);

    expect(existsSync(marker)).toBe(false);
    expect(result.findings.map(brief)).toEqual(['src/app.js:3 no-eval high']);
    expect(result.errors).toEqual([]);
    expect(await readFile(join(root, 'src/app.js'), 'utf8')).toContain('eslint-disable');
  });
});

describe('sast scanner: performance', () => {
  it('lints 1,000 files in one scan', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1000; i++) {
      const ext = i % 2 === 0 ? 'js' : 'ts';
      files[`pkg${i % 20}/module${i}.${ext}`] = `import { helper } from './helper';

export function handler${i}(input${ext === 'ts' ? ': { items: number[]; name: string }' : ''}) {
  const total = input.items.reduce((sum, n) => sum + n, 0);
  const label = \`\${input.name}: \${total}\`;
  if (total > ${i}) return helper(label);
  return { total, label, squares: input.items.map((n) => n * n) };
}
${i === 500 ? 'export const bad = (s) => eval(s);\n' : ''}`;
    }
    // How fast is the bench's business (npm run bench, section "Security scans"), not a timed test's.
    const { result } = await scan(files);
    expect(result.coverage.files_scanned).toBe(1000);
    expect(result.findings.map(brief)).toEqual(['pkg0/module500.js:9 no-eval high']);
  }, 120_000);
});

describe('sast scanner: worker threads', () => {
  it('finds the same, with the same coverage and errors, linting on worker threads as in process', async () => {
    const root = await dirs.make('sast-parallel-');
    await writeTree(root, {
      ...insecureFiles,
      ...cleanFiles,
      'broken/syntax.ts': 'export const = ;\n',
      'legacy/script.js': 'with (Math) { eval(code); }\n',
      // More chunks than the workers hold at once, of files of many sizes (handed out largest first),
      // each with a finding on its own line: every outcome must come back to its own file.
      ...Object.fromEntries(
        Array.from({ length: 70 }, (_, i) => [
          `sized/file${i}.js`,
          `${'// padding\n'.repeat((i * 7) % 40)}export const run${i} = (s) => eval(s);\n`,
        ]),
      ),
    });
    const serial = await sastScanner({ parallelism: 1 }).scan(root);
    const parallel = await sastScanner({ parallelism: 2, inProcessBelow: 1 }).scan(root);
    expect(serial.findings.filter((f) => f.location.path.startsWith('sized/'))).toHaveLength(70);
    expect(serial.errors).toEqual([expect.stringMatching(/^could not parse: broken\/syntax\.ts: /)]);
    expect(parallel).toEqual(serial);
    // The chunks were linted by workers (none failed, which would have linted them in process).
    expect(poolSize()).toBe(2);
  }, 120_000);

  it('starts the threads when a job prepares the scan, before the tree exists, and lints on them', async () => {
    const threads = poolSize() + 1;
    sastScanner({ parallelism: 1 }).prepare?.();
    expect(poolSize()).toBe(threads - 1);

    const scanner = sastScanner({ parallelism: threads, inProcessBelow: 1 });
    scanner.prepare?.();
    // Started at once, not awaited (the checkout runs meanwhile).
    expect(poolSize()).toBe(threads);

    const root = await dirs.make('sast-prepared-');
    await writeTree(root, {
      ...insecureFiles,
      ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`many/file${i}.js`, `export const run${i} = (s) => eval(s);\n`])),
    });
    const result = await scanner.scan(root);
    expect(result.findings.filter((f) => f.location.path.startsWith('many/'))).toHaveLength(40);
    expect(result).toEqual(await sastScanner({ parallelism: 1 }).scan(root));
    // The prepared workers did the work: none added, none failed.
    expect(poolSize()).toBe(threads);
  }, 180_000);

  it('never keeps a process alive with a worker that got no files (a job prepared for a tree then linted in process)', async () => {
    const lintPool = fileURLToPath(new URL('../../../../functions/engines/scanners/sast/lint-pool.ts', import.meta.url));
    const script = `import { startWorkers } from ${JSON.stringify(lintPool)}; startWorkers(1);`;
    const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) => {
      const child = execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { timeout: 90_000 });
      child.on('exit', (code, signal) => resolve({ code, signal }));
    });
    expect(exit).toEqual({ code: 0, signal: null });
  }, 120_000);
});

describe('sast scanner: threads', () => {
  it('uses in Lambda only the cores its memory size pays for, and every core elsewhere', () => {
    expect(defaultParallelism({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024' })).toBe(1);
    expect(defaultParallelism({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '3008' })).toBe(Math.min(2, availableParallelism()));
    expect(defaultParallelism({})).toBe(availableParallelism());
  });
});
