import type { FieldIssue } from '../../errors';
import { commonConfigFields, type HealthSettings, healthIntervalSeconds, healthTimeoutSeconds } from './provider';

type Bounds = { min: number; max: number };

/**
 * Reads a provider's config object field by field, collecting one issue per field, named
 * `config.<name>` (or `config.<object>.<name>` for a nested reader). `null` counts as absent, so
 * that a parsed config (which holds `null` for unset optional fields) parses again unchanged.
 */
export class ConfigFields {
  constructor(
    private readonly config: Record<string, unknown>,
    private readonly prefix = 'config',
    readonly issues: FieldIssue[] = [],
  ) {}

  field(name: string): string {
    return `${this.prefix}.${name}`;
  }

  issue(name: string, issue: string): undefined {
    const field = this.field(name);
    if (!this.issues.some((known) => known.field === field)) this.issues.push({ field, issue });
    return undefined;
  }

  private value(name: string): unknown {
    return Object.hasOwn(this.config, name) ? (this.config[name] ?? undefined) : undefined;
  }

  has(name: string): boolean {
    return this.value(name) !== undefined;
  }

  /** A string of `min`–`max` characters; `required` makes an absent one an issue. */
  string(name: string, options: Bounds & { required: boolean }): string | undefined {
    const value = this.value(name);
    if (value === undefined) return options.required ? this.issue(name, 'is required') : undefined;
    if (typeof value !== 'string') return this.issue(name, 'must be a string');
    if (value.length < options.min || value.length > options.max) {
      return this.issue(
        name,
        options.min === options.max ? `must be ${options.min} characters long` : `must be ${options.min} to ${options.max} characters long`,
      );
    }
    return value;
  }

  /** A whole number within the bounds, or `fallback` when absent (undefined on an issue). */
  integer(name: string, bounds: Bounds, fallback: number): number | undefined;
  integer(name: string, bounds: Bounds, fallback: null): number | null | undefined;
  integer(name: string, bounds: Bounds, fallback: number | null): number | null | undefined {
    const value = this.value(name);
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < bounds.min || value > bounds.max) {
      return this.issue(name, `must be an integer between ${bounds.min} and ${bounds.max}`);
    }
    return value;
  }

  /** A JSON object (not an array); `required` makes an absent one an issue. */
  object(name: string, required: boolean): Record<string, unknown> | undefined {
    const value = this.value(name);
    if (value === undefined) return required ? this.issue(name, 'is required') : undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return this.issue(name, 'must be a JSON object');
    return value as Record<string, unknown>;
  }

  /** A reader for a nested object field, whose issues land in this reader's list. */
  nested(name: string, value: Record<string, unknown>): ConfigFields {
    return new ConfigFields(value, this.field(name), this.issues);
  }

  /** An issue for every field not in `known` (nor, at the top level, a common field). */
  rejectUnknown(known: readonly string[]): void {
    const allowed = new Set<string>([...known, ...(this.prefix === 'config' ? commonConfigFields : [])]);
    for (const name of Object.keys(this.config)) if (!allowed.has(name)) this.issue(name, 'is not a known field');
  }

  /** `health_timeout_seconds` and `health_interval_seconds` with their defaults. */
  health(): HealthSettings | undefined {
    const timeout = this.integer('health_timeout_seconds', healthTimeoutSeconds, healthTimeoutSeconds.default);
    const interval = this.integer('health_interval_seconds', healthIntervalSeconds, healthIntervalSeconds.default);
    if (timeout === undefined || interval === undefined) return undefined;
    if (interval > timeout) return this.issue('health_interval_seconds', 'must not exceed health_timeout_seconds');
    return { health_timeout_seconds: timeout, health_interval_seconds: interval };
  }
}

/** A config object, or the issue that it is not one. */
export const configObject = (config: unknown): { ok: true; config: Record<string, unknown> } | { ok: false; issues: FieldIssue[] } =>
  typeof config === 'object' && config !== null && !Array.isArray(config)
    ? { ok: true, config: config as Record<string, unknown> }
    : { ok: false, issues: [{ field: 'config', issue: 'must be a JSON object' }] };
