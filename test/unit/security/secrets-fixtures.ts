/**
 * Fake secrets for the secrets scanner tests: deterministic (derived from a seed), shaped to match
 * the secretlint recommended preset's patterns, and assembled at run time so that this source file
 * holds no secret-looking literal (it would trip secret scanning of this repository itself).
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;

/** A deterministic character stream for one seed. */
export const fakeRandom = (seed: string) => {
  let counter = 0;
  let pool: number[] = [];
  const byte = (): number => {
    if (pool.length === 0) pool = [...createHash('sha256').update(`${seed}:${counter++}`).digest()];
    return pool.shift()!;
  };
  const chars = (n: number, alphabet: string): string => Array.from({ length: n }, () => alphabet[byte() % alphabet.length]).join('');
  const bytes = (n: number): Buffer => Buffer.from(Array.from({ length: n }, byte));
  return { chars, bytes };
};

/** Glue for prefixes, so that no full token prefix is a literal in this file. */
const p = (...parts: string[]): string => parts.join('');

export const fakeSecrets = (seed: string) => {
  const r = fakeRandom(seed);
  const base64Body = (der: Buffer): string =>
    der
      .toString('base64')
      .match(/.{1,64}/g)!
      .join('\n');
  return {
    awsAccessKeyId: p('AK', 'IA') + r.chars(16, UPPER + '234567'),
    // Ends with an alphanumeric character: the rule wants a word boundary after the 40 characters.
    awsSecretAccessKey: r.chars(39, ALNUM + '/+') + r.chars(1, ALNUM),
    githubPat: p('gh', 'p_') + r.chars(36, ALNUM),
    slackBotToken: p('xo', 'xb-') + r.chars(11, DIGITS) + '-' + r.chars(13, DIGITS) + '-' + r.chars(24, ALNUM),
    slackWebhook:
      p('https://hooks.', 'slack.com/services/T') +
      r.chars(8, UPPER + DIGITS) +
      '/B' +
      r.chars(8, UPPER + DIGITS) +
      '/' +
      r.chars(24, ALNUM),
    /** A PEM block whose body is plausible base64 DER (starts with `MII`), but random. */
    rsaPrivateKey:
      p('-----BEGIN RSA ', 'PRIVATE KEY-----\n') +
      base64Body(Buffer.concat([Buffer.from([0x30, 0x82, 0x04, 0xa4, 0x02, 0x01, 0x00]), r.bytes(600)])) +
      p('\n-----END RSA ', 'PRIVATE KEY-----'),
    basicAuthPassword: r.chars(18, ALNUM),
    postgresPassword: r.chars(20, ALNUM),
    npmToken: p('np', 'm_') + r.chars(36, ALNUM),
    /** A legacy (UUID) npm token, as written in an .npmrc. */
    npmrcLegacyToken: [8, 4, 4, 4, 12].map((n) => r.chars(n, '0123456789abcdef')).join('-'),
    openAiKey: p('sk-', 'proj-') + r.chars(74, ALNUM + '_-') + p('T3Bl', 'bkFJ') + r.chars(74, ALNUM + '_-'),
    anthropicKey: p('sk-', 'ant-', 'api03-') + r.chars(93, ALNUM + '_-') + 'AA',
    gitlabToken: p('gl', 'pat-') + r.chars(20, ALNUM),
  };
};
export type FakeSecrets = ReturnType<typeof fakeSecrets>;

/** Temporary folders for one test file, removed by `removeAll` in afterAll. */
export const tempDirs = () => {
  const made: string[] = [];
  return {
    async make(prefix = 'secrets-'): Promise<string> {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    async removeAll(): Promise<void> {
      await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
};

/** Writes files (repo path → content) under root, creating folders. */
export const writeTree = async (root: string, files: Record<string, string | Buffer>): Promise<void> => {
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, ...path.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
};

export interface Planted {
  /** The secret text, which must appear nowhere in the scan result. */
  secret: string;
  path: string;
  line: number;
  rule_id: string;
  severity: string;
  /** The expected excerpt. */
  excerpt: string;
}

/** A tree with one planted secret of each kind the tests cover, and what the scanner must report. */
export const plantedTree = (s: FakeSecrets): { files: Record<string, string>; planted: Planted[] } => {
  const basicAuthUrl = `https://deploy-bot:${s.basicAuthPassword}@git.corp-internal.io/app.git`;
  const postgresUrl = `postgres://app_rw:${s.postgresPassword}@db.prod.corp-internal.io:5432/app`;
  const files: Record<string, string> = {
    '.env': [
      '# local settings',
      `AWS_ACCESS_KEY_ID=${s.awsAccessKeyId}`,
      `AWS_SECRET_ACCESS_KEY=${s.awsSecretAccessKey}`,
      'REGION=eu-west-1',
      '',
    ].join('\n'),
    'src/config/aws.js': [
      "'use strict';",
      '',
      `module.exports = { region: 'eu-west-1', accessKeyId: '${s.awsAccessKeyId}', secretAccessKey: '${s.awsSecretAccessKey}' };`,
      '',
    ].join('\n'),
    'src/github.ts': [
      "import { Octokit } from 'octokit';",
      '',
      `const octokit = new Octokit({ auth: '${s.githubPat}' });`,
      'export default octokit;',
      '',
    ].join('\n'),
    'scripts/notify.sh': [
      '#!/bin/sh',
      `SLACK_BOT_TOKEN=${s.slackBotToken}`,
      `curl -X POST -d '{"text":"done"}' ${s.slackWebhook}`,
      '',
    ].join('\n'),
    'deploy/keys/id_rsa': `${s.rsaPrivateKey}\n`,
    'src/git.ts': [`export const remote = '${basicAuthUrl}';`, ''].join('\n'),
    'src/db.ts': ['// database', '', '', `export const DATABASE_URL = "${postgresUrl}";`, ''].join('\n'),
    '.npmrc': ['registry=https://registry.npmjs.org/', `//registry.npmjs.org/:_authToken=${s.npmrcLegacyToken}`, ''].join('\n'),
    '.github/workflows/publish.yml': ['env:', `  NPM_TOKEN: ${s.npmToken}`, ''].join('\n'),
    'src/ai.ts': [`export const openAiKey = '${s.openAiKey}';`, `export const anthropicKey = '${s.anthropicKey}';`, ''].join('\n'),
    'docs/release notes.txt': `Release notes\r\n\r\ngitlab: ${s.gitlabToken}\r\nend\r\n`,
  };
  const planted: Planted[] = [
    {
      secret: s.awsAccessKeyId,
      path: '.env',
      line: 2,
      rule_id: 'secretlint/aws/AWSAccessKeyID',
      severity: 'high',
      excerpt: 'AWS_ACCESS_KEY_ID=***',
    },
    {
      secret: s.awsSecretAccessKey,
      path: '.env',
      line: 3,
      rule_id: 'secretlint/aws/AWSSecretAccessKey',
      severity: 'critical',
      excerpt: 'AWS_SECRET_ACCESS_KEY=***',
    },
    {
      secret: s.awsAccessKeyId,
      path: 'src/config/aws.js',
      line: 3,
      rule_id: 'secretlint/aws/AWSAccessKeyID',
      severity: 'high',
      excerpt: "module.exports = { region: 'eu-west-1', accessKeyId: '***', secretAccessKey: '***' };",
    },
    {
      secret: s.awsSecretAccessKey,
      path: 'src/config/aws.js',
      line: 3,
      rule_id: 'secretlint/aws/AWSSecretAccessKey',
      severity: 'critical',
      excerpt: "module.exports = { region: 'eu-west-1', accessKeyId: '***', secretAccessKey: '***' };",
    },
    {
      secret: s.githubPat,
      path: 'src/github.ts',
      line: 3,
      rule_id: 'secretlint/github/GITHUB_TOKEN',
      severity: 'critical',
      excerpt: "const octokit = new Octokit({ auth: '***' });",
    },
    {
      secret: s.slackBotToken,
      path: 'scripts/notify.sh',
      line: 2,
      rule_id: 'secretlint/slack/SLACK_TOKEN',
      severity: 'critical',
      excerpt: 'SLACK_BOT_TOKEN=***',
    },
    {
      secret: s.slackWebhook,
      path: 'scripts/notify.sh',
      line: 3,
      rule_id: 'secretlint/slack/IncomingWebhook',
      severity: 'high',
      excerpt: `curl -X POST -d '{"text":"done"}' ***`,
    },
    {
      secret: s.rsaPrivateKey,
      path: 'deploy/keys/id_rsa',
      line: 1,
      rule_id: 'secretlint/privatekey/PrivateKey',
      severity: 'critical',
      excerpt: '***',
    },
    {
      secret: basicAuthUrl,
      path: 'src/git.ts',
      line: 1,
      rule_id: 'secretlint/basicauth/BasicAuth',
      severity: 'high',
      excerpt: "export const remote = '***/app.git';",
    },
    {
      secret: postgresUrl,
      path: 'src/db.ts',
      line: 4,
      rule_id: 'secretlint/database-connection-string/PostgreSQLConnection',
      severity: 'high',
      excerpt: 'export const DATABASE_URL = "***";',
    },
    {
      secret: s.npmrcLegacyToken,
      path: '.npmrc',
      line: 2,
      rule_id: 'secretlint/npm/Npmrc_authToken',
      severity: 'critical',
      excerpt: '//registry.npmjs.org/:_authToken=***',
    },
    {
      secret: s.npmToken,
      path: '.github/workflows/publish.yml',
      line: 2,
      rule_id: 'secretlint/npm/NPM_ACCESS_TOKEN',
      severity: 'critical',
      excerpt: 'NPM_TOKEN: ***',
    },
    {
      secret: s.openAiKey,
      path: 'src/ai.ts',
      line: 1,
      rule_id: 'secretlint/openai/OPENAI_TOKEN',
      severity: 'critical',
      excerpt: "export const openAiKey = '***';",
    },
    {
      secret: s.anthropicKey,
      path: 'src/ai.ts',
      line: 2,
      rule_id: 'secretlint/anthropic/ANTHROPIC_API_KEY',
      severity: 'critical',
      excerpt: "export const anthropicKey = '***';",
    },
    {
      secret: s.gitlabToken,
      path: 'docs/release notes.txt',
      line: 3,
      rule_id: 'secretlint/gitlab/GITLAB_PERSONAL_ACCESS_TOKEN',
      severity: 'critical',
      excerpt: 'gitlab: ***',
    },
  ];
  return { files, planted };
};
