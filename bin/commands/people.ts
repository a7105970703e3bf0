/**
 * `npm run cli -- users …`, `accounts list` and `oauth-clients …`: the people of an account and
 * the OAuth applications it registers. Registered in bin/cli.ts by `isPeopleCommand`.
 */
import { parseArgs } from 'node:util';
import { peopleDeps, type PeopleDeps } from '../../functions/adapters/dynamodb/people-deps';
import { ApiError } from '../../functions/core/errors';
import {
  deleteClient,
  getClient,
  listClients,
  registerClient,
  rotateClientSecret,
  updateClient,
} from '../../functions/core/oauth/manage-clients';
import { createUser, listUsers } from '../../functions/core/users/manage-users';
import { linkUrl } from '../../functions/core/users/password-links';
import { targetOrigin } from '../../lib/cli/target-origin';
import { TargetError, targetTable } from '../../lib/cli/target-table';
import { errorReport } from '../api/error-report';
import { adminFailure } from './admin-failure';

export const peopleUsage = `  users create --email <address> [--account <acct_id>] [--role admin|viewer] [--password-stdin]
  users list [--account <acct_id>]
  accounts list
  oauth-clients create --name <name> --redirect-uri <uri> [--redirect-uri <uri2> ...] [--public] [--account <acct_id>]
  oauth-clients list [--account <acct_id>]
  oauth-clients update <oac_id> [--name <name>] [--redirect-uri <uri> ...] [--account <acct_id>]
  oauth-clients rotate-secret <oac_id> [--account <acct_id>]
  oauth-clients delete <oac_id> [--account <acct_id>]`;

export interface PeopleIo {
  out(text: string): void;
  err(text: string): void;
  /** All of standard input (for --password-stdin). */
  readStdin(): Promise<string>;
}

export const isPeopleCommand = (argv: string[]): boolean =>
  argv[0] === 'users' || argv[0] === 'oauth-clients' || (argv[0] === 'accounts' && argv[1] === 'list');

class UsageError extends Error {}

const options = {
  email: { type: 'string' },
  account: { type: 'string' },
  role: { type: 'string' },
  'password-stdin': { type: 'boolean', default: false },
  name: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  public: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  stack: { type: 'string' },
} as const;

/** The account named, or the only one there is. */
const accountOf = async (named: string | undefined, deps: PeopleDeps): Promise<string> => {
  if (named) return named;
  const accounts = await deps.accounts.list(2);
  if (accounts.length === 1 && accounts[0]) return accounts[0].id;
  throw new UsageError(
    accounts.length === 0
      ? 'There is no account yet: run `accounts create --email <address>`.'
      : 'There are several accounts: name one with --account <acct_id>.',
  );
};

const run = async (argv: string[], io: PeopleIo): Promise<void> => {
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true });
  const [group, command, argument] = positionals;
  const print = (value: unknown, human: string) => io.out(values.json ? JSON.stringify(value, null, 2) : human);
  const deps = peopleDeps(await targetTable(values.stack));

  switch (`${group} ${command}`) {
    case 'users create': {
      if (!values.email) throw new UsageError('users create needs --email <address>');
      const password = values['password-stdin'] ? (await io.readStdin()).replace(/\r?\n$/, '') : undefined;
      const created = await createUser(
        { email: values.email, accountId: await accountOf(values.account, deps), role: values.role, password },
        deps,
      );
      const link = created.link ? linkUrl(await targetOrigin(values.stack), created.link.token) : undefined;
      const answer = {
        id: created.user.id,
        email: created.user.email,
        account_id: created.membership.account_id,
        role: created.membership.role,
        created: created.created,
        password_set: created.user.password_set,
        ...(link ? { set_password_link: link, link_expires_at: created.link?.expires_at } : {}),
      };
      return print(
        answer,
        [
          created.created
            ? `Created user ${answer.id} (${answer.email}), ${answer.role} of ${answer.account_id}.`
            : `Added the existing user ${answer.id} (${answer.email}) to ${answer.account_id} as ${answer.role}.`,
          ...(link ? [`They set a password at this one-time link (until ${answer.link_expires_at}):`, `  ${link}`] : []),
        ].join('\n'),
      );
    }
    case 'users list': {
      const users = await listUsers(await accountOf(values.account, deps), deps);
      return print(
        { data: users },
        users.map((u) => `${u.id}  ${u.role.padEnd(6)} ${u.two_factor ? '2fa ' : '    '}${u.email}`).join('\n') || 'No users.',
      );
    }
    case 'accounts list': {
      const accounts = await deps.accounts.list(1000);
      return print({ data: accounts }, accounts.map((a) => `${a.id}  ${a.email}  created ${a.created_at}`).join('\n') || 'No accounts.');
    }
    case 'oauth-clients create': {
      if (!values.name) throw new UsageError('oauth-clients create needs --name <name>');
      if (!values['redirect-uri']?.length) throw new UsageError('oauth-clients create needs --redirect-uri <uri> (once per URI)');
      const client = await registerClient(
        {
          accountId: await accountOf(values.account, deps),
          name: values.name,
          redirectUris: values['redirect-uri'],
          public: values.public,
        },
        deps,
      );
      const answer = {
        client_id: client.id,
        ...(client.client_secret ? { client_secret: client.client_secret } : {}),
        name: client.name,
        redirect_uris: client.redirect_uris,
        type: client.type,
        account_id: client.account_id,
        created_at: client.created_at,
      };
      return print(
        answer,
        [
          `Registered the ${client.type} application ${client.name}: client_id ${client.id}`,
          client.client_secret ? `client_secret (shown once): ${client.client_secret}` : 'No secret: it must use PKCE.',
        ].join('\n'),
      );
    }
    case 'oauth-clients list': {
      const clients = await listClients(await accountOf(values.account, deps), deps);
      return print(
        { data: clients },
        clients.map((c) => `${c.id}  ${c.type.padEnd(12)} ${c.name}  ${c.redirect_uris.join(' ')}`).join('\n') || 'No applications.',
      );
    }
    case 'oauth-clients update': {
      if (!argument) throw new UsageError('oauth-clients update needs the client id');
      if (!values.name && !values['redirect-uri']?.length) {
        throw new UsageError('oauth-clients update needs --name <name> or --redirect-uri <uri> (once per URI; they replace the list)');
      }
      const accountId = await accountOf(values.account, deps);
      const current = await getClient(accountId, argument, deps);
      const client = await updateClient(
        {
          accountId,
          clientId: argument,
          name: values.name ?? current.name,
          redirectUris: values['redirect-uri'] ?? current.redirect_uris,
        },
        deps,
      );
      return print(
        { client_id: client.id, name: client.name, redirect_uris: client.redirect_uris, updated_at: client.updated_at },
        `Updated ${client.id}: ${client.name}, redirect URIs ${client.redirect_uris.join(' ')}`,
      );
    }
    case 'oauth-clients rotate-secret': {
      if (!argument) throw new UsageError('oauth-clients rotate-secret needs the client id');
      const client = await rotateClientSecret({ accountId: await accountOf(values.account, deps), clientId: argument }, deps);
      return print(
        { client_id: client.id, client_secret: client.client_secret, secret_created_at: client.secret_created_at },
        `New client_secret of ${client.id} (shown once; the old one no longer works): ${client.client_secret}`,
      );
    }
    case 'oauth-clients delete': {
      if (!argument) throw new UsageError('oauth-clients delete needs the client id');
      await deleteClient({ accountId: await accountOf(values.account, deps), clientId: argument }, deps);
      return print({ deleted: argument }, `Deleted ${argument}: its tokens no longer work.`);
    }
    default:
      throw new UsageError(`Unknown command "${positionals.join(' ')}".`);
  }
};

/**
 * Runs one command; the exit code: 0; 1 for a refusal (printed as the API's error object with
 * --json) or no runtime to act on; 2 for a usage error.
 */
export const peopleCommand = async (argv: string[], io: PeopleIo): Promise<number> => {
  try {
    await run(argv, io);
    return 0;
  } catch (error) {
    const json = argv.includes('--json');
    if (error instanceof ApiError) {
      io.err(errorReport(adminFailure(error), json));
      return 1;
    }
    if (error instanceof TargetError) {
      io.err(error.message);
      return 1;
    }
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`${(error as Error).message}\n\n${peopleUsage}`);
      return 2;
    }
    throw error;
  }
};
