import type { ParseArgsConfig } from 'node:util';
import type { ServiceClient } from '@project-automation-service/sdk';
import type { Output } from './output';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>[string] & { description: string; values?: readonly string[] };

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

/** Options every list command takes. */
export const listOptions: Record<string, OptionSpec> = {
  'per-page': { type: 'string', description: 'items per page, 1 to 100 (default 20)' },
  all: { type: 'boolean', description: 'every item, following the pages' },
};
