import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';
import { createRedactor, secretHash, SECRET_MASK } from '../../../functions/engines/scanners/redact';
import type { ScanResult } from '../../../functions/core/security/scanner';
import { describeSecret, SECRET_KINDS, secretsScanner } from '../../../functions/engines/scanners/secrets-scanner';
import { listTextFiles } from '../../../functions/engines/scanners/text-files';
import { fakeSecrets, plantedTree, tempDirs, writeTree, type Planted } from './secrets-fixtures';

const temp = tempDirs();
afterAll(() => temp.removeAll());

const scan = (root: string): Promise<ScanResult> => secretsScanner().scan(root);
const key = (f: { location: { path: string; line: number | null }; rule_id: string }) =>
  `${f.location.path}:${f.location.line}:${f.rule_id}`;
const plantedKey = (p: Planted) => `${p.path}:${p.line}:${p.rule_id}`;

/** Every fragment of a secret long enough to be recognisable: the whole, and each of its lines. */
const fragments = (secret: string): string[] => [secret, ...secret.split('\n').filter((l) => l.length >= 12)];

const expectNoSecret = (result: ScanResult, planted: readonly Planted[]): void => {
  const json = JSON.stringify(result);
  for (const { secret } of planted) {
    for (const fragment of fragments(secret)) expect(json.includes(fragment)).toBe(false);
  }
};

describe('secretsScanner', () => {
  it('finds every planted secret with its rule, severity, path and line, and never returns a secret', async () => {
    const root = await temp.make();
    const secrets = fakeSecrets('seed-1');
    const { files, planted } = plantedTree(secrets);
    await writeTree(root, files);

    const result = await scan(root);

    expect(result.errors).toEqual([]);
    expect(result.findings.map(key).sort()).toEqual(planted.map(plantedKey).sort());
    for (const p of planted) {
      const finding = result.findings.find((f) => key(f) === plantedKey(p))!;
      expect(finding).toMatchObject({
        type: 'secrets',
        rule_id: p.rule_id,
        severity: p.severity,
        location: { path: p.path, line: p.line },
        excerpt: p.excerpt,
      });
      expect(finding.title).toMatch(/ in source$/);
      expect(finding.details).toMatchObject({ detector: 'secretlint' });
    }
    // Also the passwords alone (the planted basic-auth and database secrets are whole URLs).
    expectNoSecret(result, [...planted, { secret: secrets.basicAuthPassword } as Planted, { secret: secrets.postgresPassword } as Planted]);
    expect(result.coverage).toEqual({ files_scanned: Object.keys(files).length, covered: ['all text files'], not_covered: [] });
  });

  it('titles and describes a finding without the secret', async () => {
    const root = await temp.make();
    const secrets = fakeSecrets('seed-title');
    await writeTree(root, { '.env': `AWS_SECRET_ACCESS_KEY=${secrets.awsSecretAccessKey}\n` });

    const [finding] = (await scan(root)).findings;

    expect(finding).toMatchObject({
      title: 'AWS secret access key in source',
      description: expect.stringContaining('.env at line 1'),
      details: {
        secretlint_rule: '@secretlint/secretlint-rule-aws',
        message_id: 'AWSSecretAccessKey',
        column: 23,
        docs_url: expect.stringContaining('secretlint-rule-aws'),
      },
    });
  });

  it('builds the snippet from the rule, the path and the line with the secret as its hash', async () => {
    const root = await temp.make();
    const secrets = fakeSecrets('seed-snippet');
    await writeTree(root, { 'src/github.ts': `const a = 1;\nconst token =   '${secrets.githubPat}';\n` });

    const [finding] = (await scan(root)).findings;

    expect(finding!.snippet).toBe(
      `secretlint/github/GITHUB_TOKEN\nsrc/github.ts\nconst token = '<secret:${secretHash(secrets.githubPat)}>';`,
    );
  });

  it('gives the same snippets on every run, and a different one only where a secret changed', async () => {
    const root = await temp.make();
    const { files, planted } = plantedTree(fakeSecrets('seed-2'));
    await writeTree(root, files);

    const first = await scan(root);
    const second = await scan(root);
    expect(second).toEqual(first);

    // Another value for the GitHub token only.
    const other = fakeSecrets('seed-3');
    const github = planted.find((p) => p.rule_id === 'secretlint/github/GITHUB_TOKEN')!;
    await writeTree(root, { [github.path]: files[github.path]!.replace(github.secret, other.githubPat) });
    const third = await scan(root);

    const snippets = (r: ScanResult) => new Map(r.findings.map((f) => [key(f), f.snippet]));
    const before = snippets(first);
    const after = snippets(third);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [k, snippet] of after) {
      if (k === plantedKey(github)) expect(snippet).not.toBe(before.get(k));
      else expect(snippet).toBe(before.get(k));
    }
  });

  it('keeps a finding’s snippet when another secret on the same line changes', async () => {
    const root = await temp.make();
    const a = fakeSecrets('seed-a');
    const b = fakeSecrets('seed-b');
    const line = (id: string, secret: string) => `creds = { id: '${id}', secret_access_key: '${secret}' }\n`;

    await writeTree(root, { 'c.py': line(a.awsAccessKeyId, a.awsSecretAccessKey) });
    const first = await scan(root);
    await writeTree(root, { 'c.py': line(a.awsAccessKeyId, b.awsSecretAccessKey) });
    const second = await scan(root);

    const byRule = (r: ScanResult, rule: string) => r.findings.find((f) => f.rule_id === rule)!.snippet;
    expect(byRule(second, 'secretlint/aws/AWSAccessKeyID')).toBe(byRule(first, 'secretlint/aws/AWSAccessKeyID'));
    expect(byRule(second, 'secretlint/aws/AWSSecretAccessKey')).not.toBe(byRule(first, 'secretlint/aws/AWSSecretAccessKey'));
    expect(byRule(first, 'secretlint/aws/AWSAccessKeyID')).toContain("secret_access_key: '***'");
  });

  it('reports nothing on a clean tree with prose, placeholders and AWS’s documentation example keys', async () => {
    const root = await temp.make();
    await writeTree(root, {
      'README.md': [
        '# Service',
        '',
        'Set a strong password for the admin user; never commit a password, token or private key.',
        'Copy `.env.example` to `.env` and fill in your API key and secret access key.',
        'Connect with `postgres://user:password@localhost:5432/app` locally.',
        '',
      ].join('\n'),
      '.env.example': [
        // AWS's documentation examples: allow-listed by the preset.
        'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE',
        'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        'AWS_ACCOUNT_ID=1234-5678-9012',
        'GITHUB_TOKEN=',
        'DATABASE_URL=postgres://${DB_USER}:${DB_PASSWORD}@db.example.com:5432/app',
        'REMOTE=https://${GIT_USER}:${GIT_PASSWORD}@git.example.com/app.git',
        '',
      ].join('\n'),
      'src/auth.ts': [
        "import { createHash } from 'node:crypto';",
        '',
        'export const hashPassword = (password: string): string =>',
        "  createHash('sha256').update(password).digest('hex');",
        'export const token = process.env.GITHUB_TOKEN ?? "";',
        "const PASSWORD_FIELD = 'password';",
        'export const fields = [PASSWORD_FIELD];',
        '',
      ].join('\n'),
      'docs/keys.md': [
        'A key file looks like this:',
        '',
        '```',
        '-----BEGIN RSA PRIVATE KEY-----',
        '...your key here...',
        '-----END RSA PRIVATE KEY-----',
        '```',
        '',
      ].join('\n'),
      'package.json': JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { octokit: '^4.0.0' } }, null, 2),
    });

    const result = await scan(root);

    expect(result.findings).toEqual([]);
    expect(result.errors).toEqual([]);
    expect(result.coverage.files_scanned).toBe(5);
  });

  it('honours secretlint-disable comments in the scanned files', async () => {
    const root = await temp.make();
    const secrets = fakeSecrets('seed-disable');
    await writeTree(root, {
      'a.ts': `const t = '${secrets.githubPat}'; // secretlint-disable-line\n`,
    });

    expect((await scan(root)).findings).toEqual([]);
  });

  it('reports binary, too-large, symlinked and node_modules files as not covered, and does not scan them', async () => {
    const root = await temp.make();
    const secrets = fakeSecrets('seed-4');
    const line = `GITHUB_TOKEN=${secrets.githubPat}\n`;
    await writeTree(root, {
      'src/ok.ts': 'export const ok = true;\n',
      'assets/logo.png': Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00]), Buffer.from(line)]),
      'assets/data.bin': Buffer.concat([Buffer.from(line), Buffer.alloc(4, 0)]),
      'dump/huge.sql': line + 'x'.repeat(1024 * 1024),
      'node_modules/pkg/index.js': line,
      'node_modules/pkg/README.md': 'readme\n',
      'packages/a/node_modules/dep/index.js': line,
      '.git/config': line,
    });
    await symlink(join(root, 'src/ok.ts'), join(root, 'src/link.ts'));

    const result = await scan(root);

    expect(result.findings).toEqual([]);
    expect(result.coverage.files_scanned).toBe(1);
    expect(result.coverage.covered).toEqual(['all text files']);
    expect(result.coverage.not_covered).toEqual([
      { kind: 'binary files', files: 2, reason: expect.stringContaining('binary') },
      { kind: 'too-large files', files: 1, reason: expect.stringContaining('1 MiB') },
      { kind: 'symbolic links', files: 1, reason: expect.stringContaining('not followed') },
      { kind: 'node_modules', files: 3, reason: expect.stringContaining('(2)') },
    ]);
  });

  it('has a title and severity for every message of every rule of the installed preset', () => {
    const missing: string[] = [];
    for (const rule of presetRules) {
      if (rule.meta.id === '@secretlint/secretlint-rule-filter-comments') continue;
      for (const messageId of Object.keys(rule.messages ?? {})) {
        const described = describeSecret(rule.meta.id, messageId);
        if (!(described.key in SECRET_KINDS)) missing.push(described.key);
      }
    }
    expect(missing).toEqual([]);
  });

  it('maps severities: providers and private keys critical, credentials in URLs high, unknown rules medium', () => {
    expect(describeSecret('@secretlint/secretlint-rule-aws', 'AWSSecretAccessKey')).toMatchObject({
      rule_id: 'secretlint/aws/AWSSecretAccessKey',
      severity: 'critical',
      label: 'AWS secret access key',
    });
    expect(describeSecret('@secretlint/secretlint-rule-privatekey', 'PrivateKey').severity).toBe('critical');
    expect(describeSecret('@secretlint/secretlint-rule-gcp', 'PrivateKeyJSON').severity).toBe('critical');
    expect(describeSecret('@secretlint/secretlint-rule-basicauth', 'BasicAuth').severity).toBe('high');
    expect(describeSecret('@secretlint/secretlint-rule-database-connection-string', 'MySQLConnection').severity).toBe('high');
    expect(describeSecret('@secretlint/secretlint-rule-something-new', 'NEW_TOKEN')).toEqual({
      key: 'something-new/NEW_TOKEN',
      rule_id: 'secretlint/something-new/NEW_TOKEN',
      label: 'Secret (something-new/NEW_TOKEN)',
      severity: 'medium',
    });
  });

  it('finds a GCP service account key file (whole-file finding, fully masked)', async () => {
    const root = await temp.make();
    const secrets = fakeSecrets('seed-gcp');
    const keyFile = JSON.stringify(
      {
        type: 'service_account',
        private_key_id: 'abc123',
        private_key: `${secrets.rsaPrivateKey}\n`,
        client_email: 'x@p.iam.gserviceaccount.com',
      },
      null,
      2,
    );
    await writeTree(root, { 'creds/sa.json': keyFile });

    const result = await scan(root);

    expect(result.findings.map((f) => [f.rule_id, f.severity, f.location.line]).sort()).toEqual([
      ['secretlint/gcp/PrivateKeyJSON', 'critical', 1],
      ['secretlint/privatekey/PrivateKey', 'critical', 4],
    ]);
    expect(result.findings.find((f) => f.rule_id === 'secretlint/gcp/PrivateKeyJSON')!.excerpt).toBe(SECRET_MASK);
    // The key's line is inside the whole-file secret, so it is masked too.
    expect(result.findings.find((f) => f.rule_id === 'secretlint/privatekey/PrivateKey')!.excerpt).toBe(SECRET_MASK);
    expectNoSecret(result, [
      { secret: secrets.rsaPrivateKey } as Planted,
      { secret: JSON.stringify(secrets.rsaPrivateKey).slice(1, -1) } as Planted,
    ]);
  });

  it('scans 1,000 small files quickly', async () => {
    const root = await temp.make();
    const secrets = fakeSecrets('seed-perf');
    const files: Record<string, string> = {};
    for (let i = 0; i < 1000; i++) {
      files[`src/m${String(i).padStart(4, '0')}.ts`] =
        `export const value${i} = ${i};\nexport function f${i}(a: number): number {\n  return a + ${i};\n}\n`;
    }
    files['src/m0500.ts'] += `const token = '${secrets.githubPat}';\n`;
    await writeTree(root, files);

    const started = performance.now();
    const result = await scan(root);
    const elapsed = performance.now() - started;

    expect(result.coverage.files_scanned).toBe(1000);
    expect(result.findings.map(key)).toEqual(['src/m0500.ts:5:secretlint/github/GITHUB_TOKEN']);
    expect(elapsed).toBeLessThan(3000);
    // secretlint's profiler is off: no performance marks pile up (see secrets-scanner.ts).
    expect(performance.getEntriesByType('mark').filter((m) => m.name.startsWith('@core>'))).toEqual([]);
  });
});

describe('listTextFiles', () => {
  it('lists text files sorted by path, skipping .git and node_modules at any depth', async () => {
    const root = await temp.make();
    await writeTree(root, {
      'b.txt': 'b\n',
      'a/z.ts': 'z\n',
      'a/B.ts': 'B\n',
      'empty.txt': '',
      '.git/HEAD': 'ref\n',
      'node_modules/x/index.js': 'x\n',
      'a/node_modules/y/index.js': 'y\n',
      'a/node_modules/y/lib/more.js': 'y\n',
      'img.png': Buffer.from([1, 0, 2]),
    });
    await mkdir(join(root, 'dir-link-target'));
    await writeFile(join(root, 'dir-link-target/t.txt'), 't\n');
    await symlink(join(root, 'dir-link-target'), join(root, 'a/dir-link'));

    const listing = await listTextFiles(root);

    expect(listing.files.map((f) => f.path)).toEqual(['a/B.ts', 'a/z.ts', 'b.txt', 'dir-link-target/t.txt', 'empty.txt']);
    expect(listing.files[0]).toEqual({ path: 'a/B.ts', absolutePath: join(root, 'a/B.ts'), size: 2 });
    expect(listing.skipped).toEqual([
      { path: 'a/dir-link', reason: 'symlink' },
      { path: 'img.png', reason: 'binary' },
    ]);
    expect(listing.excludedDirs).toEqual([
      { path: 'a/node_modules', files: 2 },
      { path: 'node_modules', files: 1 },
    ]);
    expect(listing.overLimit).toBe(0);
  });

  it('skips files over maxFileBytes without reading them, and stops at maxFiles in path order', async () => {
    const root = await temp.make();
    await writeTree(root, { 'a.txt': 'a'.repeat(10), 'b.txt': 'b'.repeat(11), 'c.txt': 'c', 'd.txt': 'd', 'e.bin': Buffer.from([0]) });

    expect((await listTextFiles(root, { maxFileBytes: 10 })).skipped).toEqual([
      { path: 'b.txt', reason: 'too_large' },
      { path: 'e.bin', reason: 'binary' },
    ]);
    const limited = await listTextFiles(root, { maxFiles: 2 });
    expect(limited.files.map((f) => f.path)).toEqual(['a.txt', 'b.txt']);
    expect(limited.overLimit).toBe(3); // c.txt, d.txt and e.bin, not examined
  });

  it('finds a NUL byte only in the first 8 KiB', async () => {
    const root = await temp.make();
    await writeTree(root, {
      'late.txt': Buffer.concat([Buffer.alloc(8 * 1024, 0x61), Buffer.from([0])]),
      'early.txt': Buffer.concat([Buffer.alloc(8 * 1024 - 1, 0x61), Buffer.from([0])]),
    });

    const listing = await listTextFiles(root);

    expect(listing.files.map((f) => f.path)).toEqual(['late.txt']);
    expect(listing.skipped).toEqual([{ path: 'early.txt', reason: 'binary' }]);
  });
});

describe('redact', () => {
  const content = 'first\r\nkey = "SECRETVALUE123" other="ANOTHERSECRET9"\r\nlast\n';
  const spanOf = (text: string) => ({ start: content.indexOf(text), end: content.indexOf(text) + text.length });

  it('masks every secret of the line in the excerpt and puts only the target’s hash in the snippet', () => {
    const target = spanOf('SECRETVALUE123');
    const other = spanOf('ANOTHERSECRET9');

    const r = createRedactor(content, [target, other]).redact(target);

    expect(r).toEqual({
      line: 2,
      column: 8,
      excerpt: 'key = "***" other="***"',
      snippet: `key = "<secret:${secretHash('SECRETVALUE123')}>" other="***"`,
    });
  });

  it('masks a secret running on past the line to the end of the line', () => {
    const pem = 'const k = `-----BEGIN KEY-----\nAAAA\n-----END KEY-----`;\n';
    const start = pem.indexOf('-----BEGIN');
    const end = pem.indexOf('`;');

    const r = createRedactor(pem, [{ start, end }]).redact({ start, end });

    expect(r.excerpt).toBe('const k = `***');
    expect(r.line).toBe(1);
  });

  it('cuts long lines around the secret and still masks the reported values wherever they appear', () => {
    const secret = 'S3cr3tS3cr3t';
    const line = `${'a'.repeat(500)}x=${secret};${'b'.repeat(50)};again=${secret};${'c'.repeat(500)}`;
    const start = line.indexOf(secret);

    const r = createRedactor(line, [{ start, end: start + secret.length }]).redact(
      { start, end: start + secret.length },
      { extraSecrets: [secret] },
    );

    // 120 characters either side of the secret; the second occurrence is masked by the guard.
    expect(r.excerpt).toBe(`…${'a'.repeat(118)}x=***;${'b'.repeat(50)};again=***;${'c'.repeat(49)}…`);
    expect(r.snippet.includes(secret)).toBe(false);
  });

  it('hashes to 12 hex digits that change with the secret', () => {
    expect(secretHash('one')).toMatch(/^[0-9a-f]{12}$/);
    expect(secretHash('one')).toBe(secretHash('one'));
    expect(secretHash('one')).not.toBe(secretHash('two'));
  });
});
