import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { as } from './support/http';
import { adminDeps } from '../../functions/adapters/dynamodb/admin-deps';
import { dynamoAuditLog } from '../../functions/adapters/dynamodb/audit-log';
import { rollKey } from '../../functions/core/credentials/dashboard-keys';
import { newAccount, runtimeTable } from './support/runtime';
import { csrfTokenIn, origin, webClient } from './support/web-client';

const run = promisify(execFile);

/** `npm run cli -- …` against the integration runtime (found through its DATA_DIR), answering JSON (a usage error's text as `stderr`). */
const cli = async (args: string[], stdin?: string): Promise<{ code: number; json: any; stderr?: string }> => {
  const child = run(process.execPath, ['--conditions=source', '--import', 'tsx', 'bin/cli.ts', ...args, '--json'], {
    env: { ...process.env, DATA_DIR: process.env.IT_DATA_DIR },
  });
  if (stdin !== undefined) {
    child.child.stdin?.end(stdin);
  }
  try {
    const { stdout } = await child;
    return { code: 0, json: JSON.parse(stdout) };
  } catch (error) {
    const failure = error as { code: number; stderr: string };
    if (failure.code === 2) return { code: 2, json: undefined, stderr: failure.stderr };
    return { code: failure.code, json: JSON.parse(failure.stderr) };
  }
};

describe('the admin CLI for people and applications', () => {
  it('users create prints a one-time set-password link (24 h) that signs the new user in; users list; 409 for a member twice', async () => {
    const { account } = await newAccount();
    const email = `cli-${Date.now()}@example.com`;
    const created = await cli(['users', 'create', '--email', email, '--account', account.id, '--role', 'viewer']);
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ email, account_id: account.id, role: 'viewer', created: true, password_set: false });
    expect(created.json.id).toMatch(/^usr_[0-9A-Z]{26}$/);
    expect(created.json.set_password_link.startsWith(`${origin()}/dashboard/set-password?token=`)).toBe(true);

    const browser = webClient();
    const form = await browser.get(created.json.set_password_link);
    const set = await browser.post('/dashboard/set-password', {
      csrf_token: csrfTokenIn(form.text),
      token: new URL(created.json.set_password_link).searchParams.get('token')!,
      password: 'viewer pass phrase',
    });
    expect([set.status, set.location]).toEqual([303, '/dashboard']);

    const again = await cli(['users', 'create', '--email', email, '--account', account.id]);
    expect(again.code).toBe(1);
    expect(again.json.error).toMatchObject({ code: 'conflict', status: 409 });

    const listed = await cli(['users', 'list', '--account', account.id]);
    expect(listed.json.data).toEqual([expect.objectContaining({ email, role: 'viewer', password_set: true, two_factor: false })]);
  });

  it('users create --password-stdin sets the password at once', async () => {
    const { account } = await newAccount();
    const email = `cli-stdin-${Date.now()}@example.com`;
    const created = await cli(['users', 'create', '--email', email, '--account', account.id, '--password-stdin'], 'a piped pass phrase\n');
    expect(created.json).toMatchObject({ password_set: true });
    expect(created.json.set_password_link).toBeUndefined();
    expect((await webClient().signIn(email, 'a piped pass phrase')).status).toBe(303);
  });

  it('oauth-clients create, list, update, rotate-secret and delete; accounts list', async () => {
    const { account, live } = await newAccount();
    const created = await cli([
      'oauth-clients',
      'create',
      '--name',
      'Chat Bot',
      '--redirect-uri',
      'https://bot.example.com/cb',
      '--redirect-uri',
      'http://127.0.0.1:7777/cb',
      '--account',
      account.id,
    ]);
    expect(created.json).toMatchObject({
      name: 'Chat Bot',
      redirect_uris: ['https://bot.example.com/cb', 'http://127.0.0.1:7777/cb'],
      type: 'confidential',
    });
    expect(created.json.client_id).toMatch(/^oac_[0-9A-Za-z]{36}$/);
    expect(created.json.client_secret).toMatch(/^svc_oacs_[0-9A-Za-z]{36}$/);
    const publicApp = await cli([
      'oauth-clients',
      'create',
      '--name',
      'CLI',
      '--redirect-uri',
      'http://127.0.0.1/cb',
      '--public',
      '--account',
      account.id,
    ]);
    expect(publicApp.json.client_secret).toBeUndefined();
    const refused = await cli([
      'oauth-clients',
      'create',
      '--name',
      'Bad',
      '--redirect-uri',
      'http://bot.example.com/cb',
      '--account',
      account.id,
    ]);
    expect([refused.code, refused.json.error.code]).toEqual([1, 'validation_error']);

    const listed = await cli(['oauth-clients', 'list', '--account', account.id]);
    expect(listed.json.data.map((c: any) => c.id).sort()).toEqual([created.json.client_id, publicApp.json.client_id].sort());
    expect(JSON.stringify(listed.json)).not.toContain(created.json.client_secret);

    const renamed = await cli(['oauth-clients', 'update', created.json.client_id, '--name', 'Bot 2', '--account', account.id]);
    expect(renamed.json).toMatchObject({ client_id: created.json.client_id, name: 'Bot 2', redirect_uris: created.json.redirect_uris });
    const moved = await cli([
      'oauth-clients',
      'update',
      created.json.client_id,
      '--redirect-uri',
      'https://bot.example.com/v2/cb',
      '--account',
      account.id,
    ]);
    expect(moved.json).toMatchObject({ name: 'Bot 2', redirect_uris: ['https://bot.example.com/v2/cb'] });
    const wildcard = await cli([
      'oauth-clients',
      'update',
      created.json.client_id,
      '--redirect-uri',
      'https://*.example.com/cb',
      '--account',
      account.id,
    ]);
    expect([wildcard.code, wildcard.json.error.code]).toEqual([1, 'validation_error']);

    const rotated = await cli(['oauth-clients', 'rotate-secret', created.json.client_id, '--account', account.id]);
    expect(rotated.json.client_secret).not.toBe(created.json.client_secret);
    expect((await cli(['oauth-clients', 'delete', created.json.client_id, '--account', account.id])).code).toBe(0);
    expect((await cli(['oauth-clients', 'list', '--account', account.id])).json.data).toHaveLength(1);

    const accounts = await cli(['accounts', 'list']);
    expect(accounts.json.data.map((a: any) => a.id)).toContain(account.id);
    expect((await as(live.key).get('/projects')).status).toBe(200);
  });
  it('keys create with --json says what went wrong as { code, status, message, details }, exit code 1', async () => {
    const { account } = await newAccount();
    const refused = await cli([
      'keys',
      'create',
      '--account',
      account.id,
      '--type',
      'ro',
      '--scopes',
      'write:projects',
      '--name',
      'reader',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.json.error).toMatchObject({ code: 'validation_error', status: 422, message: expect.any(String) });

    // Without --json, the same line as an API command's error: status, code and message.
    const human = await run(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        'bin/cli.ts',
        'keys',
        'create',
        '--account',
        account.id,
        '--type',
        'test',
        '--scopes',
        'nope',
        '--name',
        'x',
      ],
      { env: { ...process.env, DATA_DIR: process.env.IT_DATA_DIR } },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(human).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^Error 422 validation_error: Invalid scopes: unknown scope nope; allowed: /),
    });

    // An unknown key is a refusal (1), a missing argument a usage error (2).
    const unknown = await cli(['keys', 'revoke', 'key_00000000000000000000000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.json.error).toMatchObject({ code: 'not_found', status: 404 });
    expect(await cli(['keys', 'revoke'])).toMatchObject({ code: 2, stderr: expect.stringContaining('keys revoke needs the key id') });
  });

  it("a command of a known group that is not one names the group's commands; an extra argument is a usage error (2)", async () => {
    const bare = await cli(['migrate']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^"migrate" is not a command\. migrate has:\n {2}migrate test-indexes/);
    expect(bare.stderr).toContain('migrate deleted-webhook-deliveries');
    expect(bare.stderr).not.toContain('accounts create');
    expect((await cli(['migrate', 'bogus'])).stderr).toContain('"migrate bogus" is not a command');
    expect(await cli(['migrate', 'failed-webhooks', 'extra'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('"migrate failed-webhooks" takes no argument; remove "extra"'),
    });
    expect(await cli(['keys', 'revoke', 'key_1', 'key_2'])).toMatchObject({ code: 2, stderr: expect.stringContaining('remove "key_2"') });
  });

  it('--help after any group or command prints that group’s commands and exits 0', async () => {
    const help = async (args: string[]) =>
      run(process.execPath, ['--conditions=source', '--import', 'tsx', 'bin/cli.ts', ...args], {
        env: { ...process.env, DATA_DIR: process.env.IT_DATA_DIR },
      });
    for (const [args, line] of [
      [['users', '--help'], '  users create --email'],
      [['users', 'create', '--help'], '  users list'],
      [['oauth-clients', '-h'], '  oauth-clients rotate-secret'],
      [['provenance', '--help'], '  provenance verify'],
      [['keys', 'create', '--help'], '  keys revoke <key_id>'],
      [['migrate', '--help'], '  migrate deleted-webhook-deliveries'],
      [['advisories', '--help'], '  advisories import'],
    ] as const) {
      const { stdout } = await help([...args]);
      expect([args, stdout.includes(line), stdout.includes('accounts create')]).toEqual([args, true, false]);
    }
    // --help alone is every command (0); no command at all is a usage error (2), as a group alone is.
    expect((await help(['--help'])).stdout).toContain('  accounts create');
    const bare = await help([]).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(bare).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining('  accounts create') });
  });

  it('keys list says a key whose value has ended is expired, not active', async () => {
    const { account, live } = await newAccount();
    const table = await runtimeTable();
    // Rolled with no overlap: the old value ends now.
    const rolled = await rollKey({ accountId: account.id, userId: 'usr_it', role: 'admin' }, live.id, 0, {
      ...adminDeps(table),
      audit: dynamoAuditLog(table),
    });
    const { stdout } = await run(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'bin/cli.ts', 'keys', 'list', '--account', account.id],
      {
        env: { ...process.env, DATA_DIR: process.env.IT_DATA_DIR },
      },
    );
    expect(stdout).toMatch(new RegExp(`${live.id} +live +\\S+ +expired +live key`));
    expect(stdout).toMatch(new RegExp(`${rolled.id} +live +\\S+ +active +live key`));
  });
});
