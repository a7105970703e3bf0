import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import * as espree from 'espree';
import { sastConfig } from '../../../../functions/engines/scanners/sast/file-linter';
import { mayReport, ruleTriggers, triggerText } from '../../../../functions/engines/scanners/sast/rule-triggers';
import { ruleTable } from '../../../../functions/engines/scanners/sast/rules';
import { sastScanner } from '../../../../functions/engines/scanners/sast/sast-scanner';
import { tempDirs, writeTree } from '../../workspace/temp-dir';
import { cleanFiles, insecureFiles } from './fixtures';

const dirs = tempDirs();
afterAll(() => dirs.removeAll());

/** One finding each today, spelt so that the rule's name is not written out as such (or, for regexes, has no name at all). */
const unusualFiles: Record<string, string> = {
  'bracket.js': "export const a = (code) => window['eval'](code);\n",
  'template.js': 'export const a = (code) => globalThis[`eval`](code);\n',
  'unicode-string.js': "export const a = (code) => window['ev\\u0061l'](code);\n",
  'identity-escape.js': "export const a = (code) => window['ev\\al'](code);\n",
  'unicode-identifier.js': 'export const a = (code) => \\u0065val(code);\n',
  'unicode-brace-identifier.js': 'export const a = (code) => \\u{65}val(code);\n',
  'line-continuation.js': "export const a = () => window['setTi\\\nmeout']('tick()', 10);\n",
  'octal.cjs': "exports.a = (code) => window['\\145val'](code);\n",
  'hex-module.ts': "export const run = (cmd: string) => require('child\\x5fprocess').exec(cmd);\n",
  'invalid-regex.ts': 'export const r = /(/;\n',
  'nested-regex.js': 'export const r = /(a+)+$/;\n',
  'timing-comment.js':
    'export function check(req, token) {\n  if (token /* secret */ === req.headers.authorization) return true;\n  return false;\n}\n',
  'shebang.js': '#!/usr/bin/env node\nexport const a = (code) => eval(code);\n',
  'bom.js': '\uFEFFexport const a = (code) => eval(code);\n',
};

/** Files that must be counted exactly as ESLint counts them although no rule can report on them. */
const parseOnlyFiles: Record<string, string> = {
  'broken/syntax.ts': 'export const = ;\n',
  'broken/module.mjs': 'export const x = ;\n',
  'legacy/script.js': "if (typeof window === 'undefined') return;\nwith (Math) { max(1, 2); }\n",
  'tool/cli.js': '#!/usr/bin/env node\nconsole.log(process.argv.length);\n',
  'safe/regexes.ts':
    'export const uuid = /^[\\da-f]{8}(?:-[\\da-f]{4}){3}-[\\da-f]{12}$/;\nexport const slug = /^[a-z\\d]+(?:-[a-z\\d]+)*$/;\n',
  'component.tsx': 'export const C = ({ n }: { n: number }) => <b>{n}</b>;\n',
};

const tree = { ...insecureFiles, ...cleanFiles, ...unusualFiles, ...parseOnlyFiles };

const scanBoth = async () => {
  const root = await dirs.make('sast-prefilter-');
  await writeTree(root, tree);
  const full = await sastScanner({ parallelism: 1, prefilter: false }).scan(root);
  const prefiltered = await sastScanner({ parallelism: 1 }).scan(root);
  return { root, full, prefiltered };
};

describe('sast prefilter: a file is only parsed when no rule can report on its text', () => {
  let scans: Awaited<ReturnType<typeof scanBoth>>;
  beforeAll(async () => {
    scans = await scanBoth();
  }, 120_000);

  it('gives the same findings, errors and coverage as linting every file', () => {
    expect(scans.full.findings.length).toBeGreaterThan(20);
    expect(scans.full.errors).toEqual([
      expect.stringMatching(/^could not parse: broken\/module\.mjs: /),
      expect.stringMatching(/^could not parse: broken\/syntax\.ts: /),
    ]);
    expect(scans.prefiltered).toEqual(scans.full);
  });

  it('keeps every finding of a name spelt with escapes, brackets or comments, and of nameless regexes', () => {
    const found = new Set(scans.full.findings.map((f) => f.location.path));
    for (const path of Object.keys(unusualFiles)) expect({ path, found: found.has(path) }).toEqual({ path, found: true });
  });

  it("holds each rule's trigger on every file the rule reports on", async () => {
    for (const f of scans.full.findings) {
      if (f.rule_id === 'security/detect-unsafe-regex' && !f.description.includes('new RegExp')) continue; // checked on the tree
      const text = triggerText(await readFile(join(scans.root, f.location.path), 'utf8'));
      expect({ rule: f.rule_id, path: f.location.path, trigger: ruleTriggers[f.rule_id]?.(text) }).toEqual({
        rule: f.rule_id,
        path: f.location.path,
        trigger: true,
      });
    }
  });

  it('skips ordinary code, and has a trigger for every rule', () => {
    expect(Object.keys(ruleTriggers).sort()).toEqual(Object.keys(ruleTable).sort());
    const skipped = Object.entries(cleanFiles).filter(([, text]) => !mayReport(text));
    expect(skipped.length).toBeGreaterThan(Object.keys(cleanFiles).length / 2);
    expect(mayReport('export const sum = (a, b) => a + b; // a request for the token\n')).toBe(false);
    expect(mayReport('export const x = (s) => \\u0065val(s);\n')).toBe(true);
  });

  it("parses JavaScript with ESLint's ecmaVersion", async () => {
    const eslint = new ESLint({ overrideConfigFile: true, overrideConfig: sastConfig('module') });
    const config = (await eslint.calculateConfigForFile('a.js')) as { languageOptions: { ecmaVersion: number } };
    expect(config.languageOptions.ecmaVersion).toBe(espree.latestEcmaVersion + 2009);
  });
});
