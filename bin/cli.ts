import { text } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
import { adminDeps } from '../functions/adapters/dynamodb/admin-deps';
import { ApiError } from '../functions/core/errors';
import {
  createAccount,
  createCredential,
  listCredentials,
  revokeCredential,
  type AdminDeps,
} from '../functions/core/credentials/manage-credentials';
import { recountAttentionCounts } from '../functions/adapters/dynamodb/migrations/attention-counts';
import { recountFailedWebhooks } from '../functions/adapters/dynamodb/migrations/failed-webhook-count';
import { backfillTestObjectIndexes } from '../functions/adapters/dynamodb/migrations/test-object-indexes';
import { removeDeliveriesOfDeletedWebhooks } from '../functions/adapters/dynamodb/migrations/deleted-webhook-deliveries';
import { TargetError, targetTable } from '../lib/cli/target-table';
import { adminFailure } from './commands/admin-failure';
import { errorReport } from './api/error-report';
import { advisoriesCommand, advisoriesUsage, isAdvisoriesCommand } from './commands/advisories';
import { isPeopleCommand, peopleCommand, peopleUsage } from './commands/people';

// The AWS SDK warns that it will need Node 22 from 2027; the local tools support Node 20.19+.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// The commands that call the API (bin/api) have their own options: they run before the admin commands' strict parse.
const api = await import('./api/index');
if (api.isApiCommand(process.argv[2])) process.exit(await api.runApiCommand(process.argv.slice(2)));

const usage = `npm run cli -- <command> [options]

  accounts create --email <address>
  keys create --type live|test|ro|pat --scopes <s1,s2,...> --name <name> [--account <acct_id>] [--expires-in-days N]
  keys list [--account <acct_id>]
  keys revoke <key_id>
  provenance verify <envelope.json> (--public-key <pem> | --local)
  provenance public-key [--local]
  migrate test-indexes                  one-off, idempotent: lists suites and runs stored before GET /v1/tests
  migrate failed-webhooks               one-off, idempotent: counts webhooks failed before the dashboard's badge kept a count
  migrate attention-counts              one-off, idempotent: counts Home's running workflows, open critical findings and deployments in progress
  migrate deleted-webhook-deliveries    one-off, idempotent: removes the deliveries of webhooks deleted before deletion took them along
${peopleUsage}
${advisoriesUsage}

Options for every command:
  --json           print one JSON object
  --stack <name>   act on a deployed stack (AWS credentials and region from the environment)
                   instead of the running local runtime

${api.apiUsage()}`;

const options = {
  email: { type: 'string' },
  type: { type: 'string' },
  scopes: { type: 'string' },
  name: { type: 'string' },
  account: { type: 'string' },
  'expires-in-days': { type: 'string' },
  json: { type: 'boolean', default: false },
  stack: { type: 'string' },
  help: { type: 'boolean', default: false },
} as const;

/** Lines of the usage that start with `start`, each with the indented lines that continue it. */
const usageLines = (start: (line: string) => boolean): string[] => {
  const lines: string[] = [];
  let continuing = false;
  for (const line of usage.split('\n')) {
    continuing = start(line) || (continuing && /^ {3,}\S/.test(line));
    if (continuing) lines.push(line);
  }
  return lines;
};

/** What a group's commands are: its lines of the usage, with the options every command takes. */
const groupUsage = (group: string): string | undefined => {
  const lines = usageLines((line) => line.startsWith(`  ${group} `));
  if (lines.length === 0) return undefined;
  const common = usageLines((line) => /^ {2}--(json|stack) /.test(line));
  return [`npm run cli -- ${group} <command> [options]`, '', ...lines, '', 'Options for every command:', ...common].join('\n');
};

// `--help` (or `-h`) anywhere in an admin command line: the group's commands, or every command.
if (process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h')) {
  const group = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
  console.log((group && groupUsage(group)) ?? usage);
  process.exit(0);
}

// `provenance …` has its own options: hand it the rest of the command line before the strict parse.
if (process.argv[2] === 'provenance') {
  const { provenanceCommand } = await import('./commands/verify-provenance');
  process.exit(
    await provenanceCommand(process.argv.slice(3), {
      out: (line: string) => console.log(line),
      err: (line: string) => console.error(line),
    }),
  );
}

if (isAdvisoriesCommand(process.argv.slice(2)))
  process.exit(await advisoriesCommand(process.argv.slice(2), { out: (text) => console.log(text), err: (text) => console.error(text) }));

if (isPeopleCommand(process.argv.slice(2)))
  process.exit(await peopleCommand(process.argv.slice(2), { out: console.log, err: console.error, readStdin: () => text(process.stdin) }));

/** A usage error: exit status 2. */
const fail = (message: string): never => {
  console.error(message);
  process.exit(2);
};

/** A refusal of the operation (or no runtime to act on): exit status 1, as the API commands answer an API error. */
const refused = (message: string): never => {
  console.error(message);
  process.exit(1);
};

const parsed = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options,
    });
  } catch (error) {
    // A malformed command line is a usage error, never a stack trace.
    const message = error instanceof Error ? error.message : String(error);
    if (/expires-in-days/.test(message)) return fail('--expires-in-days must be a whole number of days from 1 to 366.');
    return fail(`${message}\n\n${usage}`);
  }
})();
const { values, positionals } = parsed;

const expiresInDays = (text: string): number =>
  /^\d{1,3}$/.test(text) && Number(text) >= 1 && Number(text) <= 366
    ? Number(text)
    : fail(`--expires-in-days must be a whole number of days from 1 to 366, not ${JSON.stringify(text)}.`);

/** The account named, or the only account there is. */
const accountOf = async (deps: AdminDeps): Promise<string> => {
  if (values.account) return values.account;
  const accounts = await deps.accounts.list(2);
  if (accounts.length === 1 && accounts[0]) return accounts[0].id;
  return fail(
    accounts.length === 0
      ? 'There is no account yet: run `accounts create --email <address>`.'
      : 'There are several accounts: name one with --account <acct_id>.',
  );
};

const print = (value: object, human: string): void => {
  console.log(values.json ? JSON.stringify(value, null, 2) : human);
};

/** The admin commands and how many arguments each takes. */
const adminCommands: Record<string, number> = {
  'accounts create': 0,
  'keys create': 0,
  'keys list': 0,
  'keys revoke': 1,
  'migrate test-indexes': 0,
  'migrate failed-webhooks': 0,
  'migrate attention-counts': 0,
  'migrate deleted-webhook-deliveries': 0,
};

/** A command line that names no admin command, or gives one more arguments than it takes: told before reaching any table. */
const checkCommand = (group: string, command: string | undefined): void => {
  const name = `${group} ${command ?? ''}`.trim();
  const takes = adminCommands[name];
  if (takes === undefined) {
    const ofGroup = usage.split('\n').filter((line) => line.startsWith(`  ${group} `));
    fail(
      ofGroup.length > 0
        ? `"${name}" is not a command. ${group} has:\n${ofGroup.join('\n')}`
        : `Unknown command "${positionals.join(' ')}".\n\n${usage}`,
    );
  }
  const extra = positionals.slice(2 + (takes ?? 0));
  if (extra.length > 0) fail(`"${name}" takes ${takes === 0 ? 'no argument' : 'one argument'}; remove "${extra.join(' ')}".`);
};

/** Whether a key still works: revoked, expired (a rolled key's old value ends so), or active. */
const standingOf = (key: { revoked_at: string | null; expires_at: string | null }): 'revoked' | 'expired' | 'active' =>
  key.revoked_at ? 'revoked' : key.expires_at !== null && Date.parse(key.expires_at) <= Date.now() ? 'expired' : 'active';

/** `1 thing`, `n things`. */
const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

const run = async (): Promise<void> => {
  const [group, command, argument] = positionals;
  if (values.help) return console.log(usage);
  // No command at all is a usage error, as a group with no command is: the usage on stderr, exit 2.
  if (!group) return fail(usage);
  checkCommand(group, command);
  // Checked before reaching any table, so a mistyped value is told at once.
  const expires = values['expires-in-days'] === undefined ? undefined : expiresInDays(values['expires-in-days']);
  const table = await targetTable(values.stack);
  const deps = adminDeps(table);

  switch (`${group} ${command}`) {
    case 'accounts create': {
      const account = await createAccount({ email: values.email ?? fail('accounts create needs --email <address>') }, deps);
      return print(account, `Created account ${account.id} (${account.email}).`);
    }
    case 'keys create': {
      const created = await createCredential(
        {
          accountId: await accountOf(deps),
          type: values.type ?? fail('keys create needs --type live|test|ro|pat'),
          name: values.name ?? fail('keys create needs --name <name>'),
          scopes: (values.scopes ?? fail('keys create needs --scopes <comma-separated scopes>'))
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
          expiresInDays: expires,
        },
        deps,
      );
      return print(
        created,
        `Created ${created.type} key ${created.id} for ${created.account_id} with ${created.scopes.join(', ')}.\nKey (shown once): ${created.key}`,
      );
    }
    case 'keys list': {
      const keys = await listCredentials(await accountOf(deps), deps);
      return print(
        { data: keys },
        keys
          .map((k) => `${k.id}  ${k.type.padEnd(5)} ${k.hint.padEnd(16)} ${standingOf(k).padEnd(8)} ${k.name}  [${k.scopes.join(' ')}]`)
          .join('\n') || 'No keys.',
      );
    }
    case 'keys revoke': {
      const revoked = await revokeCredential(argument ?? fail('keys revoke needs the key id: keys revoke <key_id>'), deps);
      return print(revoked, `Revoked ${revoked.id} at ${revoked.revoked_at}.`);
    }
    case 'migrate failed-webhooks': {
      const report = await recountFailedWebhooks(table);
      return print(report, `Counted ${count(report.failed, 'failed webhook')} in ${count(report.tenants, 'account mode')} with webhooks.`);
    }
    case 'migrate attention-counts': {
      const report = await recountAttentionCounts(table);
      const { runningWorkflows, openCriticalFindings, deploymentsInProgress } = report;
      return print(
        report,
        `Counted ${count(runningWorkflows.counted, 'running workflow')}, ${count(openCriticalFindings.counted, 'open critical finding')} and ` +
          `${count(deploymentsInProgress.counted, 'deployment')} in progress.`,
      );
    }
    case 'migrate deleted-webhook-deliveries': {
      const report = await removeDeliveriesOfDeletedWebhooks(table);
      return print(
        report,
        `Removed ${count(report.removed, 'delivery', 'deliveries')} of ${count(report.deleted, 'deleted webhook')} (${count(report.webhooks, 'webhook')} had deliveries).`,
      );
    }
    case 'migrate test-indexes': {
      const report = await backfillTestObjectIndexes(table);
      return print(
        report,
        `Indexed ${report.updated} of ${count(report.scanned, 'test suite or run', 'test suites and runs')} for GET /v1/tests (the others had their keys already).`,
      );
    }
    default:
      fail(`Unknown command "${positionals.join(' ')}".\n\n${usage}`);
  }
};

try {
  await run();
} catch (error) {
  if (error instanceof ApiError) refused(errorReport(adminFailure(error), values.json));
  if (error instanceof TargetError) refused(error.message);
  throw error;
}
