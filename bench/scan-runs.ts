import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { deferCleanup } from './cleanup';

/**
 * How the scans section gets its input and runs the secretlint CLI: a deterministic generated
 * repository (JS/TS modules with a few planted issues, configuration and documents, a
 * package-lock.json and a requirements.txt, some binary files), a directory of OSV advisories
 * about some of its packages, and the CLI run on the same tree.
 *
 * Every fake secret is assembled at run time from a seed (no token-shaped literal in this file:
 * it would trip secret scanning of this repository), shaped to match the recommended preset.
 */

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

/** mulberry32: a small seeded PRNG (uniform in [0, 1)). */
const prng = (seed: number) => {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const bytes = (n: number): Buffer => Buffer.from(Array.from({ length: n }, () => Math.floor(next() * 256)));
  return { next, int, pick, bytes };
};
type Rng = ReturnType<typeof prng>;

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;

/** Characters from a sha256 stream of the seed (the secrets do not depend on the PRNG above). */
const hashChars = (seed: string) => {
  let counter = 0;
  let pool: number[] = [];
  const byte = (): number => {
    if (pool.length === 0) pool = [...createHash('sha256').update(`${seed}:${counter++}`).digest()];
    return pool.shift() as number;
  };
  return {
    chars: (n: number, alphabet: string): string => Array.from({ length: n }, () => alphabet[byte() % alphabet.length]).join(''),
    bytes: (n: number): Buffer => Buffer.from(Array.from({ length: n }, byte)),
  };
};

/** Glue for prefixes, so that no full token prefix is a literal here. */
const glue = (...parts: string[]): string => parts.join('');

const fakeSecrets = (seed: string) => {
  const r = hashChars(seed);
  const base64Body = (der: Buffer): string => (der.toString('base64').match(/.{1,64}/g) ?? []).join('\n');
  return {
    awsAccessKeyId: glue('AK', 'IA') + r.chars(16, `${UPPER}234567`),
    awsSecretAccessKey: r.chars(39, `${ALNUM}/+`) + r.chars(1, ALNUM),
    githubPat: glue('gh', 'p_') + r.chars(36, ALNUM),
    slackBotToken: `${glue('xo', 'xb-')}${r.chars(11, DIGITS)}-${r.chars(13, DIGITS)}-${r.chars(24, ALNUM)}`,
    slackWebhook: `${glue('https://hooks.', 'slack.com/services/T')}${r.chars(8, UPPER + DIGITS)}/B${r.chars(8, UPPER + DIGITS)}/${r.chars(24, ALNUM)}`,
    rsaPrivateKey:
      glue('-----BEGIN RSA ', 'PRIVATE KEY-----\n') +
      base64Body(Buffer.concat([Buffer.from([0x30, 0x82, 0x04, 0xa4, 0x02, 0x01, 0x00]), r.bytes(600)])) +
      glue('\n-----END RSA ', 'PRIVATE KEY-----'),
    postgresPassword: r.chars(20, ALNUM),
    npmToken: glue('np', 'm_') + r.chars(36, ALNUM),
    anthropicKey: glue('sk-', 'ant-', 'api03-') + r.chars(93, `${ALNUM}_-`) + 'AA',
    gitRemotePassword: r.chars(18, ALNUM),
  };
};

// ---------------------------------------------------------------------------------------------
// Words

const NOUNS = [
  'account',
  'invoice',
  'order',
  'project',
  'session',
  'report',
  'profile',
  'message',
  'payment',
  'ticket',
  'upload',
  'schedule',
  'metric',
  'widget',
  'customer',
  'product',
  'cart',
  'review',
  'channel',
  'token',
  'policy',
  'event',
  'queue',
  'batch',
  'record',
  'layout',
  'theme',
  'asset',
  'region',
  'tenant',
  'bucket',
  'job',
  'worker',
  'task',
  'note',
  'comment',
  'draft',
  'digest',
  'invite',
  'release',
  'build',
  'config',
  'route',
  'filter',
  'cache',
  'index',
  'search',
  'label',
  'team',
  'member',
  'role',
  'audit',
  'plan',
] as const;
const VERBS = [
  'load',
  'save',
  'build',
  'parse',
  'format',
  'resolve',
  'merge',
  'sync',
  'fetch',
  'render',
  'update',
  'compute',
  'group',
  'count',
  'select',
  'sort',
  'apply',
  'check',
  'collect',
  'prepare',
] as const;
const ADJECTIVES = [
  'fast',
  'tiny',
  'smart',
  'quick',
  'simple',
  'deep',
  'pure',
  'safe',
  'lazy',
  'fresh',
  'bright',
  'open',
  'clear',
  'solid',
  'rapid',
  'light',
  'plain',
  'neat',
  'bold',
  'calm',
] as const;
const AREAS = [
  'api',
  'billing',
  'core',
  'dashboard',
  'auth',
  'reports',
  'storage',
  'search',
  'notifications',
  'admin',
  'jobs',
  'utils',
  'models',
  'services',
  'ui',
  'integrations',
  'ops',
  'i18n',
  'analytics',
  'legacy',
] as const;
const SENTENCE_WORDS = [
  'the',
  'a',
  'each',
  'every',
  'this',
  'that',
  'when',
  'then',
  'with',
  'without',
  'after',
  'before',
  'only',
  'once',
  'is',
  'are',
  'kept',
  'sent',
  'read',
  'written',
  'checked',
  'cached',
  'retried',
  'sorted',
  'grouped',
  'value',
  'result',
  'request',
  'response',
  'list',
  'page',
  'item',
  'limit',
  'default',
  'first',
  'last',
  'next',
  'empty',
  'missing',
  'stale',
  'valid',
  'user',
  'server',
  'client',
  'file',
  'line',
] as const;

const pascal = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
const sentence = (rng: Rng, words = rng.int(6, 14)): string => {
  const text = Array.from({ length: words }, () => rng.pick(SENTENCE_WORDS)).join(' ');
  return `${pascal(text)}.`;
};
const paragraph = (rng: Rng, sentences = rng.int(2, 5)): string => Array.from({ length: sentences }, () => sentence(rng)).join(' ');

// ---------------------------------------------------------------------------------------------
// JS/TS modules

/** A block of ordinary code (no security rule fires on it); `ts` adds types. */
type Block = (rng: Rng, ts: boolean, id: (base: string) => string) => string;

const t = (ts: boolean, text: string): string => (ts ? text : '');

const blocks: Block[] = [
  (rng, ts, id) => {
    const name = pascal(id(rng.pick(NOUNS)));
    if (!ts) return `/**\n * @typedef {object} ${name}\n * @property {string} id\n * @property {number} ${rng.pick(NOUNS)}Count\n */\n`;
    return `export interface ${name} {\n  id: string;\n  ${rng.pick(NOUNS)}Count: number;\n  ${rng.pick(NOUNS)}Ids?: string[];\n  updatedAt: string;\n}\n`;
  },
  (rng, _ts, id) => {
    const name = id(`${rng.pick(ADJECTIVES)}${pascal(rng.pick(NOUNS))}Defaults`);
    const fields = Array.from(
      { length: rng.int(3, 7) },
      (_, i) => `  ${rng.pick(NOUNS)}${i}: ${rng.next() < 0.5 ? rng.int(1, 5000) : `'${rng.pick(NOUNS)}'`},`,
    ).join('\n');
    return `export const ${name} = Object.freeze({\n${fields}\n});\n`;
  },
  (rng, ts, id) => {
    const noun = rng.pick(NOUNS);
    const field = rng.pick(NOUNS);
    const name = id(`count${pascal(noun)}By${pascal(field)}`);
    return [
      `export function ${name}(items${t(ts, ': Array<Record<string, string>>')}, limit${t(ts, ': number')} = ${rng.int(10, 500)})${t(ts, ': Record<string, number>')} {`,
      `  const counts${t(ts, ': Record<string, number>')} = {};`,
      '  for (const item of items) {',
      `    const key = item.${field} ?? 'unknown';`,
      '    if ((counts[key] ?? 0) >= limit) continue;',
      '    counts[key] = (counts[key] ?? 0) + 1;',
      '  }',
      '  return counts;',
      '}',
      '',
    ].join('\n');
  },
  (rng, ts, id) => {
    const noun = rng.pick(NOUNS);
    const name = id(`${rng.pick(VERBS)}${pascal(noun)}`);
    return [
      `/** ${sentence(rng)} */`,
      `export async function ${name}(client${t(ts, ': { get(path: string): Promise<unknown> }')}, id${t(ts, ': string')})${t(ts, ': Promise<{ ok: boolean; ms: number; body?: unknown }>')} {`,
      '  const started = Date.now();',
      '  try {',
      `    const body = await client.get(\`/${noun}s/\${encodeURIComponent(id)}\`);`,
      '    return { ok: true, ms: Date.now() - started, body };',
      '  } catch (error) {',
      `    console.warn('${sentence(rng, 5)}', { id, error });`,
      '    return { ok: false, ms: Date.now() - started };',
      '  }',
      '}',
      '',
    ].join('\n');
  },
  (rng, ts, id) => {
    const name = id(`${pascal(rng.pick(NOUNS))}Cache`);
    return [
      `export class ${name} {`,
      ts ? '  private readonly entries = new Map<string, { value: unknown; expires: number }>();' : '  entries = new Map();',
      ts
        ? `  constructor(private readonly ttlMs: number = ${rng.int(1, 60) * 1000}) {}`
        : `  constructor(ttlMs = ${rng.int(1, 60) * 1000}) {\n    this.ttlMs = ttlMs;\n  }`,
      '',
      `  get(key${t(ts, ': string')})${t(ts, ': unknown')} {`,
      '    const entry = this.entries.get(key);',
      '    if (!entry || entry.expires < Date.now()) {',
      '      this.entries.delete(key);',
      '      return undefined;',
      '    }',
      '    return entry.value;',
      '  }',
      '',
      `  set(key${t(ts, ': string')}, value${t(ts, ': unknown')})${t(ts, ': void')} {`,
      '    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });',
      `    if (this.entries.size > ${rng.int(100, 5000)}) {`,
      '      const oldest = this.entries.keys().next().value;',
      '      if (oldest !== undefined) this.entries.delete(oldest);',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n');
  },
  (rng, ts, id) => {
    const name = id(`${rng.pick(NOUNS)}Label`);
    const cases = Array.from({ length: rng.int(3, 8) }, (_, i) => {
      const word = `${rng.pick(NOUNS)}-${i}`;
      return `    case '${word}':\n      return '${pascal(word.replace('-', ' '))}';`;
    }).join('\n');
    return `export const ${name} = (kind${t(ts, ': string')})${t(ts, ': string')} => {\n  switch (kind) {\n${cases}\n    default:\n      return kind;\n  }\n};\n`;
  },
  (rng, ts, id) => {
    const a = rng.pick(NOUNS);
    const b = rng.pick(NOUNS);
    const name = id(`${rng.pick(VERBS)}${pascal(a)}Rows`);
    return [
      `export const ${name} = (rows${t(ts, `: Array<{ ${a}: number; ${b}: string }>`)}) =>`,
      '  rows',
      `    .filter((row) => row.${a} > ${rng.int(0, 100)})`,
      `    .map((row) => ({ ...row, ${b}: row.${b}.trim().toLowerCase() }))`,
      `    .sort((x, y) => x.${a} - y.${a})`,
      `    .slice(0, ${rng.int(10, 200)});`,
      '',
    ].join('\n');
  },
  (rng) => `// ${sentence(rng)}\n// ${sentence(rng)}\n// ${sentence(rng)}\n`,
  (rng, ts, id) => {
    const name = id(`${rng.pick(NOUNS).toUpperCase()}_NAME_PATTERN`);
    const fn = id(`isValid${pascal(rng.pick(NOUNS))}Name`);
    return `const ${name} = /^[a-z][a-z0-9-]{${rng.int(1, 3)},${rng.int(20, 64)}}$/;\n\nexport const ${fn} = (value${t(ts, ': string')})${t(ts, ': boolean')} => ${name}.test(value);\n`;
  },
  (rng, ts, id) => {
    const noun = rng.pick(NOUNS);
    const name = id(`describe${pascal(noun)}`);
    return [
      `export function ${name}(${noun}${t(ts, ': { id: string; name?: string; total?: number }')})${t(ts, ': string')} {`,
      `  const parts${t(ts, ': string[]')} = [\`${noun} \${${noun}.id}\`];`,
      `  if (${noun}.name) parts.push(\`"\${${noun}.name}"\`);`,
      `  if (typeof ${noun}.total === 'number') parts.push(\`total \${${noun}.total.toFixed(${rng.int(0, 2)})}\`);`,
      "  return parts.join(', ');",
      '}',
      '',
    ].join('\n');
  },
];

interface ModuleSpec {
  path: string;
  ts: boolean;
  targetBytes: number;
  /** Extra imports and code, planted issues included. */
  imports?: string[];
  extra?: string[];
}

const moduleSource = (rng: Rng, spec: ModuleSpec, siblings: readonly string[], packages: readonly string[]): string => {
  const used = new Set<string>();
  const id = (base: string): string => {
    let name = base;
    for (let n = 2; used.has(name); n += 1) name = `${base}${n}`;
    used.add(name);
    return name;
  };
  const head = [`/**\n * ${paragraph(rng, 2)}\n */`];
  const imports = new Set<string>();
  for (let i = rng.int(0, 2); i > 0; i -= 1) {
    const sibling = rng.pick(siblings);
    imports.add(`import * as ${id(`${rng.pick(NOUNS)}Module`)} from './${sibling}${spec.ts ? '' : '.js'}';`);
  }
  for (let i = rng.int(0, 2); i > 0; i -= 1) {
    const pkg = rng.pick(packages);
    imports.add(
      `import ${id(`${pkg.replace(/^@[^/]+\//, '').replace(/[^a-z0-9]+(.)/g, (_m, c: string) => c.toUpperCase())}Lib`)} from '${pkg}';`,
    );
  }
  const parts = [...head, [...imports, ...(spec.imports ?? [])].join('\n'), ''];
  let size = parts.join('\n').length;
  const extra = (spec.extra ?? []).join('\n');
  while (size + extra.length < spec.targetBytes) {
    const block = (rng.pick(blocks) as Block)(rng, spec.ts, id);
    parts.push(block);
    size += block.length + 1;
  }
  if (extra) parts.splice(3 + Math.floor((parts.length - 3) / 2), 0, extra);
  return `${parts.join('\n')}\n`;
};

// ---------------------------------------------------------------------------------------------
// Other files

const markdown = (rng: Rng, title: string): string => {
  const sections = Array.from({ length: rng.int(2, 6) }, () => {
    const lines = [`## ${pascal(rng.pick(NOUNS))} ${rng.pick(NOUNS)}s`, '', paragraph(rng), ''];
    if (rng.next() < 0.5) lines.push(...Array.from({ length: rng.int(2, 5) }, () => `- ${sentence(rng, rng.int(3, 8))}`), '');
    if (rng.next() < 0.4) lines.push('```sh', `npm run ${rng.pick(VERBS)} -- --${rng.pick(NOUNS)}=${rng.int(1, 99)}`, '```', '');
    return lines.join('\n');
  });
  return `# ${title}\n\n${paragraph(rng)}\n\n${sections.join('\n')}`;
};

const jsonConfig = (rng: Rng): string => {
  const object: Record<string, unknown> = {};
  for (let i = rng.int(5, 30); i > 0; i -= 1) {
    const key = `${rng.pick(NOUNS)}${pascal(rng.pick(NOUNS))}`;
    const roll = rng.next();
    object[key] =
      roll < 0.3
        ? rng.int(0, 10_000)
        : roll < 0.6
          ? sentence(rng, rng.int(2, 6))
          : roll < 0.8
            ? rng.next() < 0.5
            : { enabled: rng.next() < 0.5, limit: rng.int(1, 100), tags: [rng.pick(NOUNS), rng.pick(NOUNS)] };
  }
  return `${JSON.stringify(object, null, 2)}\n`;
};

const yamlFile = (rng: Rng, name: string): string => {
  if (rng.next() < 0.5) {
    const steps = Array.from(
      { length: rng.int(2, 6) },
      () => `      - name: ${pascal(rng.pick(VERBS))} ${rng.pick(NOUNS)}s\n        run: npm run ${rng.pick(VERBS)}`,
    ).join('\n');
    return `name: ${name}\non:\n  push:\n    branches: [main]\njobs:\n  ${rng.pick(VERBS)}:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n${steps}\n`;
  }
  const env = Array.from(
    { length: rng.int(2, 8) },
    () =>
      `            - name: ${rng.pick(NOUNS).toUpperCase()}_${rng.pick(NOUNS).toUpperCase()}\n              value: "${rng.int(1, 999)}"`,
  ).join('\n');
  return `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  replicas: ${rng.int(1, 6)}\n  template:\n    spec:\n      containers:\n        - name: ${name}\n          image: registry.example.com/${name}:${rng.int(1, 9)}.${rng.int(0, 20)}.${rng.int(0, 30)}\n          env:\n${env}\n`;
};

const otherFile = (rng: Rng, index: number): { path: string; content: string } => {
  const noun = `${rng.pick(NOUNS)}-${index}`;
  switch (index % 6) {
    case 0: {
      const rules = Array.from(
        { length: rng.int(5, 30) },
        () =>
          `.${rng.pick(NOUNS)}-${rng.pick(ADJECTIVES)} {\n  margin: ${rng.int(0, 32)}px;\n  color: #${rng.int(0, 0xffffff).toString(16).padStart(6, '0')};\n}`,
      ).join('\n\n');
      return { path: `styles/${noun}.css`, content: `${rules}\n` };
    }
    case 1: {
      const lines = Array.from({ length: rng.int(3, 20) }, () => `echo "${sentence(rng, 4)}"\nnpm run ${rng.pick(VERBS)} --silent`).join(
        '\n',
      );
      return { path: `scripts/${noun}.sh`, content: `#!/bin/sh\nset -eu\n\n${lines}\n` };
    }
    case 2: {
      const fns = Array.from(
        { length: rng.int(2, 10) },
        (_, i) =>
          `def ${rng.pick(VERBS)}_${rng.pick(NOUNS)}_${i}(items, limit=${rng.int(1, 99)}):\n    """${sentence(rng)}"""\n    return [item for item in items if item.get("${rng.pick(NOUNS)}", 0) < limit]\n`,
      ).join('\n\n');
      return { path: `tools/${noun.replace(/-/g, '_')}.py`, content: `import json\nimport sys\n\n\n${fns}` };
    }
    case 3: {
      const items = Array.from({ length: rng.int(3, 20) }, () => `      <li class="${rng.pick(NOUNS)}">${sentence(rng, 4)}</li>`).join(
        '\n',
      );
      return {
        path: `templates/${noun}.html`,
        content: `<!doctype html>\n<html lang="en">\n  <body>\n    <h1>${pascal(noun)}</h1>\n    <ul>\n${items}\n    </ul>\n  </body>\n</html>\n`,
      };
    }
    case 4: {
      const rows = Array.from(
        { length: rng.int(10, 120) },
        (_, i) => `${i},${rng.pick(NOUNS)},${rng.int(0, 10_000)},${rng.pick(ADJECTIVES)}`,
      ).join('\n');
      return { path: `data/${noun}.csv`, content: `id,kind,amount,tag\n${rows}\n` };
    }
    default:
      return { path: `notes/${noun}.txt`, content: `${paragraph(rng, rng.int(3, 12))}\n` };
  }
};

// ---------------------------------------------------------------------------------------------
// Dependencies and advisories

interface LockEntry {
  name: string;
  version: string;
  /** Installed under another package (`node_modules/a/node_modules/b`). */
  parent?: string;
}

const lockEntries = (rng: Rng, count: number): LockEntry[] => {
  const names = new Set<string>();
  while (names.size < count - 12) {
    const base = `${rng.pick(ADJECTIVES)}-${rng.pick(NOUNS)}${rng.next() < 0.3 ? `-${rng.pick(VERBS)}` : ''}`;
    names.add(rng.next() < 0.12 ? `@${rng.pick(['acme', 'corp', 'tools', 'ui'])}/${base}` : base);
  }
  const top = [...names].sort().map((name) => ({ name, version: `${rng.int(1, 9)}.${rng.int(0, 30)}.${rng.int(0, 20)}` }));
  // A few packages also installed in an older major under another one (as npm nests conflicting versions).
  const nested: LockEntry[] = top.slice(0, 12).map((entry, i) => ({
    name: entry.name,
    version: `0.${rng.int(1, 9)}.${rng.int(0, 9)}`,
    parent: top[top.length - 1 - i]?.name as string,
  }));
  return [...top, ...nested];
};

const packageLock = (rng: Rng, entries: readonly LockEntry[], direct: readonly LockEntry[]): string => {
  const packages: Record<string, unknown> = {
    '': {
      name: 'generated-app',
      version: '1.0.0',
      license: 'UNLICENSED',
      dependencies: Object.fromEntries(direct.map((d) => [d.name, `^${d.version}`])),
    },
  };
  for (const entry of entries) {
    const key = entry.parent ? `node_modules/${entry.parent}/node_modules/${entry.name}` : `node_modules/${entry.name}`;
    const tarball = entry.name.replace(/^@[^/]+\//, '');
    const value: Record<string, unknown> = {
      version: entry.version,
      resolved: `https://registry.npmjs.org/${entry.name}/-/${tarball}-${entry.version}.tgz`,
      integrity: `sha512-${createHash('sha512').update(`${entry.name}@${entry.version}`).digest('base64')}`,
    };
    if (rng.next() < 0.3) value.dev = true;
    if (rng.next() < 0.4)
      value.dependencies = Object.fromEntries(
        Array.from({ length: rng.int(1, 4) }, () => rng.pick(entries)).map((d) => [d.name, `^${d.version}`]),
      );
    if (rng.next() < 0.15) value.engines = { node: `>=${rng.int(12, 20)}` };
    packages[key] = value;
  }
  return `${JSON.stringify({ name: 'generated-app', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`;
};

const PYPI_NAMES = [
  'requests',
  'urllib3',
  'django',
  'flask',
  'jinja2',
  'pyyaml',
  'pillow',
  'numpy',
  'pandas',
  'sqlalchemy',
  'celery',
  'redis',
  'boto3',
  'botocore',
  'cryptography',
  'certifi',
  'idna',
  'click',
  'werkzeug',
  'gunicorn',
  'psycopg2-binary',
  'lxml',
  'pydantic',
  'fastapi',
  'uvicorn',
  'starlette',
  'httpx',
  'aiohttp',
  'pytest',
  'black',
  'six',
  'attrs',
  'markupsafe',
  'itsdangerous',
  'python-dateutil',
  'pytz',
  'charset-normalizer',
  'setuptools',
  'wheel',
  'packaging',
] as const;

interface Advisory {
  file: string;
  record: Record<string, unknown>;
  /** Whether it should produce a finding, and on which package version. */
  matches: { ecosystem: string; name: string; version: string } | null;
}

const cvss = (rng: Rng): string =>
  `CVSS:3.1/AV:N/AC:${rng.pick(['L', 'H'])}/PR:${rng.pick(['N', 'L'])}/UI:${rng.pick(['N', 'R'])}/S:U/C:${rng.pick(['H', 'L', 'N'])}/I:${rng.pick(['H', 'L'])}/A:${rng.pick(['H', 'L', 'N'])}`;

const advisoryRecord = (
  rng: Rng,
  index: number,
  ecosystem: string,
  name: string,
  range: Record<string, string>[],
  withdrawn = false,
): Record<string, unknown> => {
  const id = `GHSA-bnch-${String(index).padStart(4, '0')}-${LOWER[index % 26]}${LOWER[(index * 7) % 26]}${LOWER[(index * 11) % 26]}${LOWER[(index * 13) % 26]}`;
  const record: Record<string, unknown> = {
    schema_version: '1.6.0',
    id,
    modified: '2025-01-15T10:00:00Z',
    published: '2024-11-02T08:30:00Z',
    aliases: [`CVE-2024-${String(40000 + index)}`],
    summary: `${pascal(rng.pick(ADJECTIVES))} ${rng.pick(NOUNS)} handling in ${name} allows ${rng.pick(['denial of service', 'prototype pollution', 'path traversal', 'cross-site scripting', 'request smuggling'])}`,
    details: paragraph(rng, 3),
    affected: [{ package: { ecosystem, name }, ranges: [{ type: ecosystem === 'npm' ? 'SEMVER' : 'ECOSYSTEM', events: range }] }],
    references: [{ type: 'ADVISORY', url: `https://github.com/advisories/${id}` }],
  };
  if (rng.next() < 0.6) record.severity = [{ type: 'CVSS_V3', score: cvss(rng) }];
  else record.database_specific = { severity: rng.pick(['CRITICAL', 'HIGH', 'MODERATE', 'LOW']) };
  if (withdrawn) record.withdrawn = '2025-02-01T00:00:00Z';
  return record;
};

const nextMajor = (version: string): string => `${Number(version.split('.')[0]) + 1}.0.0`;

const advisories = (rng: Rng, npmTop: readonly LockEntry[], pypi: ReadonlyArray<{ name: string; version: string }>): Advisory[] => {
  const list: Advisory[] = [];
  let index = 1;
  const add = (ecosystem: string, name: string, range: Record<string, string>[], matches: Advisory['matches'], withdrawn = false): void => {
    const record = advisoryRecord(rng, index, ecosystem, name, range, withdrawn);
    list.push({ file: `${ecosystem}/${record.id as string}.json`, record, matches });
    index += 1;
  };
  // Packages with one installed version only (not the first 12: those are also nested in an older version).
  const single = npmTop.slice(20);
  const step = Math.floor(single.length / 32);
  const chosen = Array.from({ length: 32 }, (_, i) => single[i * step] as LockEntry);
  // 20 affect the installed version: introduced 0, fixed in the next major.
  for (const entry of chosen.slice(0, 20))
    add('npm', entry.name, [{ introduced: '0' }, { fixed: nextMajor(entry.version) }], {
      ecosystem: 'npm',
      name: entry.name,
      version: entry.version,
    });
  // 10 about installed packages, fixed before the installed version.
  for (const entry of chosen.slice(20, 30)) add('npm', entry.name, [{ introduced: '0' }, { fixed: '0.9.0' }], null);
  // 2 withdrawn (never match).
  for (const entry of chosen.slice(30, 32)) add('npm', entry.name, [{ introduced: '0' }], null, true);
  // 8 PyPI: 5 affect the pinned version, 3 are fixed before it.
  for (const [i, pin] of pypi.slice(0, 8).entries()) {
    if (i < 5)
      add('PyPI', pin.name, [{ introduced: '0' }, { fixed: nextMajor(pin.version) }], {
        ecosystem: 'PyPI',
        name: pin.name,
        version: pin.version,
      });
    else add('PyPI', pin.name, [{ introduced: '0' }, { fixed: '0.1.0' }], null);
  }
  // 10 about packages that are not in the tree.
  for (let i = 0; i < 10; i += 1) add(i % 2 === 0 ? 'npm' : 'PyPI', `absent-${rng.pick(NOUNS)}-${i}`, [{ introduced: '0' }], null);
  return list;
};

// ---------------------------------------------------------------------------------------------
// The repository

export interface PlantedSecret {
  path: string;
  /** `<short rule>/<messageId>`, as secrets-scanner.ts keys SECRET_KINDS. */
  kind: string;
}

export interface PlantedSast {
  path: string;
  rule: string;
}

export interface GeneratedRepository {
  /** The temporary folder holding `repo/`, `osv/` and the secretlint configuration. */
  base: string;
  root: string;
  advisoryDir: string;
  /** .secretlintrc.json for the CLI, outside the tree (the same configuration as secrets-scanner.ts). */
  secretlintrc: string;
  /** A tree of one small file, to time the CLI's start-up alone. */
  tinyRoot: string;
  /** A module to preload (`node --import`) into the CLI that turns secretlint's profiler off, as secrets-scanner.ts does. */
  profilerOffPreload: string;
  /** Files of the working tree (not counting .git/ and node_modules/). */
  files: number;
  bytes: number;
  byKind: Record<string, number>;
  /** Files under .git/ and node_modules/ (each with a planted secret), which no tool should read. */
  skippedFiles: number;
  advisories: number;
  packages: { npm: number; pypi: number };
  planted: { secrets: PlantedSecret[]; sast: PlantedSast[]; dependencies: Array<{ ecosystem: string; name: string; version: string }> };
  remove(): Promise<void>;
}

export interface RepositoryShape {
  files: number;
  seed: number;
}

/** The preset as secrets-scanner.ts configures it (AWS key ids on, account ids off). */
const secretlintrcJson = {
  rules: [
    {
      id: '@secretlint/secretlint-rule-preset-recommend',
      rules: [{ id: '@secretlint/secretlint-rule-aws', options: { enableIDScanRule: true }, allowMessageIds: ['AWSAccountID'] }],
    },
  ],
};

export const generateRepository = async (shape: RepositoryShape): Promise<GeneratedRepository> => {
  const base = await mkdtemp(join(tmpdir(), 'pas-bench-scans-'));
  const remove = deferCleanup(() => rm(base, { recursive: true, force: true }));
  try {
    return await populate(base, shape, remove);
  } catch (error) {
    await remove();
    throw error;
  }
};

const populate = async (base: string, shape: RepositoryShape, remove: () => Promise<void>): Promise<GeneratedRepository> => {
  const rng = prng(shape.seed);
  const s = fakeSecrets(`bench-scans-${shape.seed}`);
  const root = join(base, 'repo');
  const advisoryDir = join(base, 'osv');
  const files = new Map<string, string | Buffer>();
  const byKind: Record<string, number> = {};
  const put = (path: string, content: string | Buffer, kind: string): void => {
    if (files.has(path)) throw new Error(`generated twice: ${path}`);
    files.set(path, content);
    byKind[kind] = (byKind[kind] ?? 0) + 1;
  };

  // Dependencies.
  const npm = lockEntries(rng, 300);
  const npmTop = npm.filter((e) => !e.parent);
  const direct = npmTop.filter((_, i) => i % 9 === 0);
  const pypi = PYPI_NAMES.map((name) => ({ name, version: `${rng.int(1, 5)}.${rng.int(0, 30)}.${rng.int(0, 12)}` }));
  put(
    'package.json',
    `${JSON.stringify({ name: 'generated-app', version: '1.0.0', private: true, type: 'module', dependencies: Object.fromEntries(direct.map((d) => [d.name, `^${d.version}`])) }, null, 2)}\n`,
    'manifests and lockfiles',
  );
  put('package-lock.json', packageLock(rng, npm, direct), 'manifests and lockfiles');
  put(
    'requirements.txt',
    `# Python tools\n${pypi.map((p, i) => `${p.name}==${p.version}${i % 7 === 3 ? ' ; python_version >= "3.9"' : ''}`).join('\n')}\nrequests-toolbelt>=1.0\n`,
    'manifests and lockfiles',
  );

  // Secrets outside the JS/TS modules (each file counts in its own kind).
  const planted: GeneratedRepository['planted'] = { secrets: [], sast: [], dependencies: [] };
  const secret = (path: string, kind: string): void => void planted.secrets.push({ path, kind });
  put(
    '.env',
    `# local settings\nAWS_ACCESS_KEY_ID=${s.awsAccessKeyId}\nAWS_SECRET_ACCESS_KEY=${s.awsSecretAccessKey}\nREGION=eu-west-1\nLOG_LEVEL=debug\n`,
    'other text',
  );
  secret('.env', 'aws/AWSAccessKeyID');
  secret('.env', 'aws/AWSSecretAccessKey');
  put(
    'scripts/notify-release.sh',
    `#!/bin/sh\nset -eu\nSLACK_BOT_TOKEN=${s.slackBotToken}\ncurl -X POST -d '{"text":"released"}' ${s.slackWebhook}\n`,
    'other text',
  );
  secret('scripts/notify-release.sh', 'slack/SLACK_TOKEN');
  secret('scripts/notify-release.sh', 'slack/IncomingWebhook');
  put('deploy/keys/deploy_rsa', `${s.rsaPrivateKey}\n`, 'other text');
  secret('deploy/keys/deploy_rsa', 'privatekey/PrivateKey');
  put(
    'config/database.yml',
    `production:\n  adapter: postgresql\n  url: "postgres://app_rw:${s.postgresPassword}@db.prod.corp-internal.io:5432/app"\n  pool: 10\n`,
    'JSON/YAML/Markdown',
  );
  secret('config/database.yml', 'database-connection-string/PostgreSQLConnection');
  put(
    '.github/workflows/publish.yml',
    `name: publish\non:\n  release:\n    types: [published]\njobs:\n  publish:\n    runs-on: ubuntu-latest\n    env:\n      NPM_TOKEN: ${s.npmToken}\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm publish\n`,
    'JSON/YAML/Markdown',
  );
  secret('.github/workflows/publish.yml', 'npm/NPM_ACCESS_TOKEN');
  // Not secrets: placeholders the preset allows.
  put(
    'docs/local-setup.md',
    `# Local set-up\n\nClone with \`https://user:password@localhost/app.git\` or set \`DATABASE_URL=postgres://app:\${PASSWORD}@localhost:5432/app\`.\n\n${paragraph(rng)}\n`,
    'JSON/YAML/Markdown',
  );

  // Binary files.
  const png = (n: number): Buffer =>
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]), rng.bytes(n)]);
  put('assets/logo.png', png(6000), 'binary');
  put('assets/hero.png', png(24_000), 'binary');
  put('assets/icons/sprite.png', png(12_000), 'binary');
  put('assets/fonts/inter.woff2', Buffer.concat([Buffer.from('wOF2\0\x01\0\0', 'latin1'), rng.bytes(18_000)]), 'binary');
  put('public/favicon.ico', Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0]), rng.bytes(3000)]), 'binary');

  // JS/TS modules: 60% of the files.
  const moduleCount = Math.round(shape.files * 0.6);
  const specs: ModuleSpec[] = [];
  const perArea = new Map<string, string[]>();
  for (let i = 0; i < moduleCount; i += 1) {
    const area = AREAS[i % AREAS.length] as string;
    const ts = rng.next() < 0.55;
    const stem = `${rng.pick(NOUNS)}-${rng.pick(VERBS)}-${i}`;
    specs.push({ path: `src/${area}/${stem}.${ts ? 'ts' : 'js'}`, ts, targetBytes: rng.int(1024, 8192) });
    perArea.set(area, [...(perArea.get(area) ?? []), stem]);
  }
  const plant = (index: number, rule: string | null, imports: string[], extra: string[], secretKind?: string): void => {
    const spec = specs[index] as ModuleSpec;
    spec.imports = [...(spec.imports ?? []), ...imports];
    spec.extra = [...(spec.extra ?? []), ...extra];
    if (rule) planted.sast.push({ path: spec.path, rule });
    if (secretKind) secret(spec.path, secretKind);
  };
  const decl = (spec: ModuleSpec, name: string, type: string): string => (spec.ts ? `${name}: ${type}` : name);
  const at = (fraction: number): number => Math.floor(moduleCount * fraction);
  {
    const i = at(0.05);
    plant(
      i,
      'no-eval',
      [],
      [
        `/** Evaluates a formula typed by the user. */\nexport function evaluateFormula(${decl(specs[i] as ModuleSpec, 'formula', 'string')}) {\n  return eval(formula);\n}\n`,
      ],
    );
  }
  {
    const i = at(0.21);
    plant(
      i,
      'no-eval',
      [],
      [
        `export const runSnippet = (${decl(specs[i] as ModuleSpec, 'source', 'string')}) => {\n  const value = eval(\`(\${source})\`);\n  return value;\n};\n`,
      ],
    );
  }
  {
    const i = at(0.37);
    plant(
      i,
      'no-unsanitized/property',
      [],
      [
        `export function renderCard(${decl(specs[i] as ModuleSpec, 'container', 'HTMLElement')}, ${decl(specs[i] as ModuleSpec, 'title', 'string')}) {\n  container.innerHTML = \`<h2>\${title}</h2>\`;\n}\n`,
      ],
    );
  }
  {
    const i = at(0.53);
    plant(
      i,
      'no-unsanitized/property',
      [],
      [
        `export function showBanner(${decl(specs[i] as ModuleSpec, 'element', 'HTMLElement')}, ${decl(specs[i] as ModuleSpec, 'markup', 'string')}) {\n  element.innerHTML = markup;\n}\n`,
      ],
    );
  }
  {
    const i = at(0.69);
    plant(
      i,
      'security/detect-child-process',
      ["import { exec } from 'node:child_process';"],
      [
        `export function gitLog(${decl(specs[i] as ModuleSpec, 'ref', 'string')}) {\n  exec(\`git log --oneline \${ref}\`, (error, stdout) => console.log(error ?? stdout));\n}\n`,
      ],
    );
  }
  {
    const i = at(0.85);
    plant(
      i,
      'security/detect-child-process',
      ["import { exec } from 'child_process';"],
      [
        `export function archive(${decl(specs[i] as ModuleSpec, 'target', 'string')}) {\n  exec('tar czf backup.tgz ' + target, () => undefined);\n}\n`,
      ],
    );
  }
  plant(at(0.3), null, [], [`export const githubToken = process.env.GITHUB_TOKEN ?? '${s.githubPat}';\n`], 'github/GITHUB_TOKEN');
  plant(
    at(0.6),
    null,
    [],
    [`export const anthropicApiKey = process.env.ANTHROPIC_API_KEY || "${s.anthropicKey}";\n`],
    'anthropic/ANTHROPIC_API_KEY',
  );
  const packageNames = direct.map((d) => d.name);
  for (const spec of specs) {
    const area = spec.path.split('/')[1] as string;
    const own = spec.path.slice(spec.path.lastIndexOf('/') + 1).replace(/\.[jt]s$/, '');
    const siblings = (perArea.get(area) ?? []).filter((stem) => stem !== own);
    put(spec.path, moduleSource(rng, spec, siblings.length > 0 ? siblings : [own], packageNames), 'JS/TS modules');
  }

  // JSON/YAML/Markdown: 20% of the files (the two planted above included).
  const documents = Math.round(shape.files * 0.2);
  for (let i = byKind['JSON/YAML/Markdown'] ?? 0; i < documents; i += 1) {
    const noun = `${rng.pick(NOUNS)}-${i}`;
    const roll = i % 5;
    if (roll === 0 || roll === 1) put(`config/${noun}.json`, jsonConfig(rng), 'JSON/YAML/Markdown');
    else if (roll === 2)
      put(`${rng.next() < 0.5 ? 'deploy' : '.github/workflows'}/${noun}.yaml`, yamlFile(rng, noun), 'JSON/YAML/Markdown');
    else put(`docs/${rng.pick(AREAS)}/${noun}.md`, markdown(rng, pascal(noun.replace('-', ' '))), 'JSON/YAML/Markdown');
  }

  // The rest: style sheets, shell and Python scripts, HTML templates, CSV data, notes.
  for (let i = 0; files.size < shape.files; i += 1) {
    const { path, content } = otherFile(rng, i);
    put(path, content, 'other text');
  }

  // Outside the working tree proper: no tool should read these (each holds a secret).
  const gitRemote = `https://deploy-bot:${s.gitRemotePassword}@git.corp-internal.io/app.git`;
  const skipped: Record<string, string> = {
    '.git/HEAD': 'ref: refs/heads/main\n',
    '.git/config': `[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = ${gitRemote}\n`,
    'node_modules/left-pad/package.json': '{ "name": "left-pad", "version": "1.3.0" }\n',
    'node_modules/left-pad/index.js': `module.exports = (s) => s; // ${s.slackBotToken}\n`,
  };

  let bytes = 0;
  for (const [path, content] of [...files, ...Object.entries(skipped)]) {
    const target = join(root, ...path.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
    if (files.has(path)) bytes += Buffer.byteLength(content);
  }

  const osv = advisories(rng, npmTop, pypi);
  for (const advisory of osv) {
    const target = join(advisoryDir, advisory.file);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, `${JSON.stringify(advisory.record, null, 2)}\n`);
  }
  planted.dependencies = osv.flatMap((a) => (a.matches ? [a.matches] : []));

  const secretlintrc = join(base, 'secretlintrc.json');
  await writeFile(secretlintrc, `${JSON.stringify(secretlintrcJson, null, 2)}\n`);
  const profilerOffPreload = join(base, 'profiler-off.mjs');
  const profilerUrl = pathToFileURL(createRequire(import.meta.url).resolve('@secretlint/profiler')).href;
  await writeFile(
    profilerOffPreload,
    `import { secretLintProfiler } from ${JSON.stringify(profilerUrl)};\nsecretLintProfiler.mark = () => {};\n`,
  );
  const tinyRoot = join(base, 'tiny');
  await mkdir(tinyRoot);
  await writeFile(join(tinyRoot, 'README.md'), '# Tiny\n');

  return {
    base,
    root,
    advisoryDir,
    secretlintrc,
    tinyRoot,
    profilerOffPreload,
    files: files.size,
    bytes,
    byKind,
    skippedFiles: Object.keys(skipped).length,
    advisories: osv.length,
    packages: { npm: npm.length, pypi: pypi.length },
    planted,
    remove,
  };
};

// ---------------------------------------------------------------------------------------------
// Timing and the secretlint CLI

/** Runs `fn` `warmup` times unmeasured, then `runs` times; the measured results and their times. */
export const timed = async <T>(
  fn: () => Promise<T>,
  warmup: number,
  runs: number,
): Promise<{ warmupMs: number[]; runsMs: number[]; last: T }> => {
  const warmupMs: number[] = [];
  const runsMs: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < warmup + runs; i += 1) {
    const started = performance.now();
    last = await fn();
    (i < warmup ? warmupMs : runsMs).push(performance.now() - started);
  }
  if (last === undefined) throw new Error('timed: no run');
  return { warmupMs, runsMs, last };
};

/**
 * `node <args>` in `cwd`, a new process, for a CLI that writes its report to `outputFile` (stdout
 * ignored): its exit code (0, or 1 when it reported problems) and the report, read once the
 * process has exited and then deleted. 2, another code or a signal is a failure, reported with
 * the start of its stderr.
 */
export const runCli = async (
  name: string,
  args: readonly string[],
  outputFile: string,
  cwd: string,
): Promise<{ exitCode: 0 | 1; output: string }> => {
  try {
    const exitCode = await new Promise<0 | 1>((resolve, reject) => {
      const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
      const err: Buffer[] = [];
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.on('error', reject);
      child.on('close', (code, signal) => {
        if (code === 0 || code === 1) resolve(code);
        else reject(new Error(`${name} exited ${code ?? signal}: ${Buffer.concat(err).toString('utf8').slice(0, 500)}`));
      });
    });
    return { exitCode, output: await readFile(outputFile, 'utf8') };
  } finally {
    await rm(outputFile, { force: true });
  }
};

const secretlintBin = fileURLToPath(new URL('../node_modules/secretlint/bin/secretlint.js', import.meta.url));

export interface CliMessage {
  /** Repo-relative, '/'-separated. */
  path: string;
  line: number | null;
  /** `<short rule>/<messageId>`. */
  kind: string;
}

export interface CliRun {
  exitCode: number;
  /** Files the CLI linted (results in its JSON), and how many it classed as binary. */
  files: number;
  binaryFiles: number;
  messages: CliMessage[];
}

interface CliJsonResult {
  filePath: string;
  sourceContentType?: string;
  messages: Array<{ ruleId: string; messageId: string; loc?: { start?: { line?: number } } }>;
}

/**
 * `secretlint "**\/*" --secretlintrc <rc> --format json --output <file>` in `root`, as a new node
 * process (what a developer or CI runs). Its default ignores leave out .git/ and node_modules/.
 * `--output`: the CLI writes its stdout with console.log and then calls process.exit, which cuts a
 * large output short on a pipe; with `--output` it writes the file and exits 0 even when it found
 * secrets (without it: 1). 2 or a signal is a failure. The file is read once the process has
 * exited, and only paths, lines and rule ids are kept (the JSON also carries every file's content,
 * masked). `preload`: a module for `node --import` (see `profilerOffPreload`).
 */
export const runSecretlintCli = async (root: string, secretlintrc: string, outputFile: string, preload?: string): Promise<CliRun> => {
  const { exitCode, output } = await runCli(
    'secretlint CLI',
    [
      ...(preload ? ['--import', pathToFileURL(preload).href] : []),
      secretlintBin,
      '**/*',
      '--secretlintrc',
      secretlintrc,
      '--format',
      'json',
      '--output',
      outputFile,
      '--no-color',
      '--no-terminalLink',
    ],
    outputFile,
    root,
  );
  return readCliOutput(root, output, exitCode);
};

const readCliOutput = (root: string, output: string, exitCode: number): CliRun => {
  let results: CliJsonResult[];
  try {
    results = JSON.parse(output) as CliJsonResult[];
  } catch (error) {
    throw new Error(`secretlint CLI: its output is not JSON (${(error as Error).message})`, { cause: error });
  }
  const relativePath = (file: string): string => relative(root, file).split(sep).join('/');
  return {
    exitCode,
    files: results.length,
    binaryFiles: results.filter((r) => r.sourceContentType === 'binary').length,
    messages: results.flatMap((r) =>
      r.messages.map((m) => ({
        path: relativePath(r.filePath),
        line: m.loc?.start?.line ?? null,
        kind: `${m.ruleId.replace(/^@secretlint\/secretlint-rule-/, '')}/${m.messageId}`,
      })),
    ),
  };
};

// ---------------------------------------------------------------------------------------------
// The ESLint CLI with the sast scanner's configuration

const eslintBin = fileURLToPath(new URL('../node_modules/eslint/bin/eslint.js', import.meta.url));
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const sastConfigModule = new URL('../functions/engines/scanners/sast/file-linter.ts', import.meta.url).href;

/**
 * An `eslint.config.mjs` outside the tree exporting the sast scanner's own flat config (its rules,
 * its narrowed plugins, its parsers), imported from the sources: the CLI runs under tsx's loader.
 */
export const writeEslintConfig = async (base: string): Promise<string> => {
  const file = join(base, 'eslint.config.mjs');
  await writeFile(file, `import { sastConfig } from ${JSON.stringify(sastConfigModule)};\nexport default sastConfig('module');\n`);
  return file;
};

export interface EslintCliRun {
  exitCode: number;
  files: number;
  messages: Array<{ path: string; line: number; ruleId: string }>;
  /** Fatal (parse) errors. */
  fatal: number;
}

interface EslintJsonResult {
  filePath: string;
  messages: Array<{ ruleId: string | null; line: number; fatal?: boolean }>;
}

/**
 * `node --import tsx eslint . --config <file> --no-inline-config --format json --output-file <out>`
 * in `root`, a new node process each run (ESLint's own defaults otherwise: no cache, concurrency
 * off, node_modules/ and .git/ ignored). Exit 1 means it reported problems; 2 or a signal is a failure.
 */
export const runEslintCli = async (root: string, configFile: string, outputFile: string): Promise<EslintCliRun> => {
  const { exitCode, output } = await runCli(
    'ESLint CLI',
    [
      '--import',
      tsxLoader,
      eslintBin,
      '.',
      '--config',
      configFile,
      '--no-inline-config',
      '--no-warn-ignored',
      '--format',
      'json',
      '--output-file',
      outputFile,
    ],
    outputFile,
    root,
  );
  const results = JSON.parse(output) as EslintJsonResult[];
  const relativePath = (file: string): string => relative(root, file).split(sep).join('/');
  return {
    exitCode,
    files: results.length,
    messages: results.flatMap((r) =>
      r.messages.flatMap((m) => (m.ruleId && !m.fatal ? [{ path: relativePath(r.filePath), line: m.line, ruleId: m.ruleId }] : [])),
    ),
    fatal: results.reduce((n, r) => n + r.messages.filter((m) => m.fatal).length, 0),
  };
};
