import { readFile } from 'node:fs/promises';
import type { ParseArgsConfig } from 'node:util';
import type { ServiceClient } from '@project-automation-service/sdk';
import type { Output } from './output';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>[string] & { description: string; values?: readonly string[] };

/** The API fields whose options do not spell them alike (the others are their option in snake_case), whatever the command. */
const fieldsOfOptions: Record<string, string> = {
  project: 'project_id',
  suite: 'test_id',
  types: 'scan_types',
  timeout: 'timeout_seconds',
  provider: 'ai_provider',
};

/**
 * The option of `options` that set the API field an error names: the field itself, its last
 * segment (`config.branch` → --branch) or its first (`config.branch` → --config, `events.0` → --events).
 */
export const optionOfField = (options: Record<string, OptionSpec>, field: string): string | undefined => {
  const segments = field.split(/[.[\]]/).filter(Boolean);
  const candidates = [field, segments.at(-1), segments[0]];
  for (const candidate of candidates) {
    const found = Object.entries(options).find(([name]) => (fieldsOfOptions[name] ?? name.replaceAll('-', '_')) === candidate);
    if (found) return found[0];
  }
  return undefined;
};

/** What a command runs with: the SDK client, its parsed options and arguments, and the terminal. */
export interface CommandContext {
  api: ServiceClient;
  /** The API root as given (`…/v1`). */
  apiUrl: string;
  /** The key in use (for a per-key state file; never printed). */
  apiKey: string;
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  out: Output;
  /** Aborts on Ctrl-C: long commands stop waiting and exit. */
  signal: AbortSignal;
}

export interface Command {
  summary: string;
  /** Positional arguments, as shown in the usage: `<id>`. */
  args?: string;
  options?: Record<string, OptionSpec>;
  /** Resolves to the process's exit status. */
  run(context: CommandContext): Promise<number>;
}

export interface CommandGroup {
  name: string;
  summary: string;
  commands: Record<string, Command>;
}

export class UsageError extends Error {}

export const required = (context: CommandContext, name: string): string => {
  const value = context.values[name];
  if (typeof value !== 'string' || value.length === 0) throw new UsageError(`--${name} is required`);
  return value;
};

export const argument = (context: CommandContext, index: number, what: string): string => {
  const value = context.positionals[index];
  if (!value) throw new UsageError(`${what} is required`);
  return value;
};

export const optionalString = (context: CommandContext, name: string): string | undefined => {
  const value = context.values[name];
  return typeof value === 'string' ? value : undefined;
};

/** An option limited to `choices`: anything else is a usage error naming them. */
export const choiceOption = <const T extends readonly string[]>(
  context: CommandContext,
  name: string,
  choices: T,
): T[number] | undefined => {
  const value = optionalString(context, name);
  if (value === undefined) return undefined;
  if (!choices.includes(value)) throw new UsageError(`--${name} must be one of ${choices.join(', ')}`);
  return value;
};

/** A file an option names, read whole; a file that cannot be read is a usage error that names it. */
export const readOptionFile = async (name: string, file: string): Promise<string> => {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : ((error as NodeJS.ErrnoException).code ?? 'unreadable');
    throw new UsageError(`--${name}: cannot read ${file} (${reason})`);
  }
};

/** An option given as text (`--prompt`) or as a file (`--prompt-file`): one of the two, never both. */
export const textOrFile = async (context: CommandContext, name: string, fileName: string): Promise<string | undefined> => {
  const text = optionalString(context, name);
  const file = optionalString(context, fileName);
  if (text !== undefined && file !== undefined) throw new UsageError(`pass --${name} or --${fileName}, not both`);
  return file === undefined ? text : readOptionFile(fileName, file);
};

export const integerOption = (context: CommandContext, name: string): number | undefined => {
  const value = optionalString(context, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
};

export const listOption = (context: CommandContext, name: string): string[] | undefined =>
  optionalString(context, name)
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** The option of every command that creates or starts something (a POST), sent as its `Idempotency-Key`. */
export const idempotencyOption: Record<string, OptionSpec> = {
  'idempotency-key': {
    type: 'string',
    description: 'run it again with the same key and it is done once (the first answer is replayed, for 24 h)',
  },
};

/** Options every list command takes. */
export const listOptions: Record<string, OptionSpec> = {
  'per-page': { type: 'string', description: 'items per page, 1 to 100 (default 20)' },
  page: { type: 'string', description: 'which page, from 1 (default 1)' },
  all: { type: 'boolean', description: 'every item, following the pages' },
};

/** The statuses every asynchronous job of a project has (scans, reviews, test suites and runs). */
const jobStatuses = ['queued', 'running', 'completed', 'failed'] as const;

/** Options of a list of a project's jobs: the page options, `--project` and `--status`. */
export const jobListOptions: Record<string, OptionSpec> = {
  ...listOptions,
  project: { type: 'string', description: "only this project's" },
  status: { type: 'string', description: 'queued, running, completed or failed', values: jobStatuses },
};

/** The query of a list of a project's jobs, from `jobListOptions`. */
export const jobListQuery = (context: CommandContext) => ({
  ...pageQuery(context),
  project_id: optionalString(context, 'project'),
  status: optionalString(context, 'status') as (typeof jobStatuses)[number] | undefined,
});

/** A list command's page and page size, as the API's `page` and `per_page`. */
export const pageQuery = (context: CommandContext): { page?: number; per_page?: number } => {
  const page = integerOption(context, 'page');
  if (page !== undefined && context.values.all) throw new UsageError('pass --page or --all, not both');
  return { page, per_page: integerOption(context, 'per-page') };
};
