import { parseArgs } from 'node:util';
import { apiRootOf, createClient, ServiceApiError, ServiceConnectionError } from '@project-automation-service/sdk';
import { locateRuntime } from '../../lib/local/runtime-file';
import { type Command, type CommandGroup, type OptionSpec, optionOfField, UsageError } from './command';
import { bashCompletion, zshCompletion } from './completion';
import { deployments } from './deployments';
import { events } from './events';
import { listen } from './listen';
import { errorReport } from './error-report';
import { createOutput, type Output } from './output';
import { projects } from './projects';
import { reviews } from './reviews';
import { findings, scans } from './security';
import { tests } from './tests';
import { webhooks } from './webhooks';
import { workflows } from './workflows';

/** The commands that call the API (through the SDK), as opposed to the admin commands that work on the table. */
export const apiGroups: CommandGroup[] = [projects, workflows, scans, findings, reviews, deployments, tests, webhooks, events];

/** The admin commands of bin/cli.ts, named here for completion only. */
const adminWords = ['accounts', 'keys', 'provenance', 'migrate', 'users', 'oauth-clients', 'advisories'];

const completion: Command = {
  summary: 'print a shell completion script: completion bash|zsh',
  args: 'bash|zsh',
  async run(context) {
    const shell = context.positionals[0];
    if (shell === 'bash') context.out.line(bashCompletion(apiGroups, topLevel, adminWords));
    else if (shell === 'zsh') context.out.line(zshCompletion(apiGroups, topLevel, adminWords));
    else throw new UsageError('name the shell: completion bash or completion zsh');
    return 0;
  },
};

const topLevel: Record<string, Command> = { listen, completion };

const globalOptions: Record<string, OptionSpec> = {
  'api-key': { type: 'string', description: 'API key or personal access token (default $SERVICE_API_KEY)' },
  'api-url': { type: 'string', description: 'the API URL with /v1 (default $SERVICE_API_URL, else the running local runtime)' },
  json: { type: 'boolean', description: 'print JSON for scripts' },
  help: { type: 'boolean', short: 'h', description: 'show help' },
};

export const isApiCommand = (word: string | undefined): boolean =>
  word !== undefined && (apiGroups.some((group) => group.name === word) || Object.hasOwn(topLevel, word));

const optionLines = (options: Record<string, OptionSpec> = {}) =>
  Object.entries(options).map(([name, spec]) => `    --${name}${spec.type === 'string' ? ' <value>' : ''}`.padEnd(34) + spec.description);

const usageOf = (path: string, command: Command) =>
  [
    `npm run cli -- ${path}${command.args ? ` ${command.args}` : ''} [options]`,
    `  ${command.summary}`,
    ...optionLines(command.options),
    ...optionLines(globalOptions),
  ].join('\n');

export const apiUsage = (): string =>
  [
    'Commands that call the API (SERVICE_API_KEY, SERVICE_API_URL; --json for scripts):',
    ...apiGroups.map((group) => `  ${group.name.padEnd(12)} ${Object.keys(group.commands).join('|').padEnd(34)} ${group.summary}`),
    ...Object.entries(topLevel).map(([name, command]) => `  ${name.padEnd(12)} ${''.padEnd(34)} ${command.summary}`),
    '  (`npm run cli -- <group> <command> --help` shows the options)',
  ].join('\n');

/** The running local runtime's /v1 URL, found as the admin commands find it (DATA_DIR, the default folder, or the only one running). */
const localApiUrl = async (): Promise<string | undefined> => {
  const lookup = await locateRuntime();
  return lookup.kind === 'found' ? lookup.info.apiUrl : undefined;
};

/**
 * The API's /v1 URL: --api-url, $SERVICE_API_URL, the running local runtime's, or the default port's.
 * One spelling per API (`…/v1`, no trailing slash), so that `listen` keeps one state per API.
 */
export const apiUrlOf = async (given: string | undefined): Promise<string> => {
  const url = given ?? process.env.SERVICE_API_URL ?? (await localApiUrl()) ?? 'http://localhost:3000/v1';
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.search || parsed.hash)
    throw new UsageError(`the API URL must be http(s)://host[:port]/v1, not "${url}" (--api-url or SERVICE_API_URL)`);
  return `${apiRootOf(`${parsed.origin}${parsed.pathname}`)}/v1`;
};

/**
 * A fetch that sends the command's POST (each command sends one) under the key `--idempotency-key`
 * names, in place of the one the SDK generates, and says on stderr when the API replayed an answer.
 */
const postingUnder =
  (key: string, out: Output): typeof fetch =>
  async (input, init) => {
    if (init?.method !== 'POST') return globalThis.fetch(input, init);
    const headers = new Headers(init.headers);
    headers.set('Idempotency-Key', key);
    const response = await globalThis.fetch(input, { ...init, headers });
    if (response.headers.get('Idempotent-Replayed') === 'true')
      out.error('Replayed the answer first given under this --idempotency-key: nothing was done again.');
    return response;
  };

/** node's parser explains an unknown option at length, with quotes of its own: the option is what matters. */
const readableParseError = (error: Error): string => {
  const unknown = /^Unknown option '([^']+)'/.exec(error.message);
  return unknown ? `Unknown option ${unknown[1]}.` : error.message;
};

export const runApiCommand = async (argv: string[]): Promise<number> => {
  const [first, second] = argv;
  const group = apiGroups.find((g) => g.name === first);
  const command = group ? group.commands[second ?? ''] : topLevel[first ?? ''];
  const path = group ? `${group.name} ${second ?? ''}`.trim() : (first ?? '');
  const out = createOutput(argv.includes('--json'));
  if (group && (second === undefined || second === '--help' || second === '-h')) {
    const usage = `${group.name}: ${group.summary}\n${Object.entries(group.commands)
      .map(([name, c]) => `  npm run cli -- ${group.name} ${name}${c.args ? ` ${c.args}` : ''}`.padEnd(52) + c.summary)
      .join('\n')}\n  (\`npm run cli -- ${group.name} <command> --help\` shows the options)`;
    if (second === undefined) out.error(usage);
    else out.line(usage);
    return second === undefined ? 2 : 0;
  }
  if (!command) {
    out.error(
      group
        ? `Unknown command "${path}". ${group.name} has: ${Object.keys(group.commands).join(', ')}.`
        : `Unknown command "${first}".\n\n${apiUsage()}`,
    );
    return 2;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv.slice(group ? 2 : 1),
      options: { ...command.options, ...globalOptions },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    out.error(`${readableParseError(error as Error)}\n\n${usageOf(path, command)}`);
    return 2;
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) {
    out.line(usageOf(path, command));
    return 0;
  }
  for (const [name, spec] of Object.entries(command.options ?? {})) {
    const value = values[name];
    if (spec.values && typeof value === 'string' && !spec.values.includes(value)) {
      out.error(`--${name} must be one of ${spec.values.join(', ')}`);
      return 2;
    }
  }

  let apiUrl: string;
  try {
    apiUrl = await apiUrlOf(values['api-url'] as string | undefined);
  } catch (error) {
    out.error((error as Error).message);
    return 2;
  }
  const apiKey = (values['api-key'] as string | undefined) ?? process.env.SERVICE_API_KEY ?? '';
  if (!apiKey && command !== completion) {
    out.error('No API key: set SERVICE_API_KEY (the key `npm start` printed, or one from `npm run cli -- keys create`) or pass --api-key.');
    return 2;
  }
  const controller = new AbortController();
  const onInterrupt = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', onInterrupt);
  try {
    const idempotencyKey = values['idempotency-key'] as string | undefined;
    return await command.run({
      api: createClient({ baseUrl: apiUrl, apiKey, fetch: idempotencyKey ? postingUnder(idempotencyKey, out) : undefined }),
      apiUrl,
      apiKey,
      values,
      positionals: parsed.positionals,
      out,
      signal: controller.signal,
    });
  } catch (error) {
    if (controller.signal.aborted) return 130;
    if (error instanceof UsageError) {
      out.error(`${error.message}\n\n${usageOf(path, command)}`);
      return 2;
    }
    if (error instanceof ServiceApiError) {
      out.error(errorReport(error, out.json, (field) => optionOfField(command.options ?? {}, field)));
      return 1;
    }
    if (error instanceof ServiceConnectionError) {
      out.error(`${error.message}\nIs the API running at ${apiUrl}? Start the local one with \`npm start\`, or set SERVICE_API_URL.`);
      return 1;
    }
    throw error;
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
};
