import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { functionBuildOptions } from '../../lib/constructs/function-bundle';
import { lastLineOfLambdaNode } from './lambda-node-process';

// A bundle reaches node's built-ins through the shims of lib/constructs/builtin-modules.ts: what
// imports them and what require()s them (the CommonJS dependencies a function bundles) must both
// get what node itself would give, and no file may make node build a facade of a shimmed module.
describe('built-in modules in a bundle', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pas-builtins-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const bundleAndRun = async (files: Record<string, string>): Promise<any> => {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const outdir = join(dir, 'out');
    const { metafile } = await build({
      ...functionBuildOptions,
      absWorkingDir: dir,
      entryPoints: [join(dir, 'entry.mjs')],
      outdir,
      metafile: true,
    });
    const externals = Object.values(metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path));
    const answer = await lastLineOfLambdaNode(
      ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(join(outdir, 'index.mjs')).href)});`],
      {},
    );
    return { externals, ...answer };
  };

  it('imports get the named exports and the default of each module, with no ES module import of it left', async () => {
    const answer = await bundleAndRun({
      'entry.mjs': [
        "import { readFileSync } from 'node:fs';",
        "import { join } from 'path';",
        "import { createHash } from 'node:crypto';",
        "import util, { format } from 'node:util';",
        "import http from 'node:http';",
        "import process from 'node:process';",
        "import { setTimeout as wait } from 'node:timers/promises';",
        'await wait(1);',
        'console.log(JSON.stringify({',
        "  read: readFileSync(new URL(import.meta.url), 'utf8').length > 0,",
        "  joined: join('a', 'b'),",
        "  hashed: createHash('sha256').update('x').digest('hex').slice(0, 8),",
        "  formatted: format('%s=%d', 'n', 1),",
        "  sameUtil: util === process.getBuiltinModule('node:util'),",
        "  sameHttp: http === process.getBuiltinModule('node:http'),",
        '  statusText: http.STATUS_CODES[404],',
        "  undici: process.moduleLoadList.some((m) => m.includes('undici')),",
        '}));',
      ].join('\n'),
    });
    expect(answer).toEqual({
      externals: [],
      read: true,
      joined: 'a/b',
      hashed: '2d711642',
      formatted: 'n=1',
      sameUtil: true,
      sameHttp: true,
      statusText: 'Not Found',
      undici: false,
    });
  });

  it("a CommonJS dependency's require() gets every property it reads; http and process, and the modules that are functions, are node's own", async () => {
    const answer = await bundleAndRun({
      'entry.mjs': "import { report } from './dependency.cjs';\nconsole.log(JSON.stringify(report));\n",
      'dependency.cjs': [
        "const fs = require('fs');",
        "const path = require('node:path');",
        "const crypto = require('crypto');",
        "const http = require('http');",
        "const EventEmitter = require('events');",
        "const assert = require('assert');",
        'class Emitter extends EventEmitter {}',
        'assert(true);',
        'exports.report = {',
        "  promisesRead: typeof fs.promises.readFile === 'function',",
        "  joined: path.join('a', 'b'),",
        '  random: crypto.randomBytes(4).length,',
        "  webcrypto: typeof crypto.webcrypto.getRandomValues === 'function',",
        "  sameHttp: http === process.getBuiltinModule('node:http'),",
        '  emitter: new Emitter() instanceof EventEmitter,',
        "  undici: process.moduleLoadList.some((m) => m.includes('undici')),",
        '};',
      ].join('\n'),
    });
    expect(answer).toEqual({
      externals: expect.arrayContaining(['events', 'assert']),
      promisesRead: true,
      joined: 'a/b',
      random: 4,
      webcrypto: true,
      sameHttp: true,
      emitter: true,
      undici: false,
    });
  });
});
