import { readFileSync, renameSync, writeFileSync } from 'node:fs';

/**
 * Makes one Task fail instead of calling its handler, like Step Functions Local's mocked-error test
 * cases. `match` maps dotted input paths ("workflow.project_id", "$." optional) to the values they
 * must hold; each path is looked up in the task's input, then in the execution's input.
 */
export interface FaultRule {
  match?: Record<string, unknown>;
  /** Task state name. */
  state: string;
  /** The Step Functions error name, as Retry/Catch ErrorEquals see it. Absent: the task is only delayed. */
  error?: string;
  /** Waits this long before failing or, without `error`, before calling the real handler (a slow task). */
  delayMs?: number;
  cause?: string;
  /** How many matching invocations fail before the real handler runs again; absent = all of them. */
  times?: number;
}

export type FaultRules = FaultRule[];

const isFaultRule = (value: unknown): value is FaultRule => {
  if (typeof value !== 'object' || value === null) return false;
  const rule = value as Record<string, unknown>;
  return (
    typeof rule.state === 'string' &&
    (rule.error === undefined || typeof rule.error === 'string') &&
    (rule.delayMs === undefined || (typeof rule.delayMs === 'number' && rule.delayMs >= 0)) &&
    (rule.error !== undefined || rule.delayMs !== undefined) &&
    (rule.cause === undefined || typeof rule.cause === 'string') &&
    (rule.times === undefined || (typeof rule.times === 'number' && rule.times >= 0)) &&
    (rule.match === undefined || (typeof rule.match === 'object' && rule.match !== null && !Array.isArray(rule.match)))
  );
};

/**
 * Rules read from a JSON file (an array of FaultRule) on every call, so another process (a test) can
 * change them while the runtime runs. No file = no rules.
 */
export const faultsFromFile =
  (path: string): (() => FaultRules) =>
  () => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const rules: unknown = JSON.parse(text);
    if (!Array.isArray(rules) || !rules.every(isFaultRule)) {
      throw new Error(`${path} must hold an array of { match?, state, error?, delayMs?, cause?, times? }`);
    }
    return rules;
  };

/** Written whole and renamed into place, so a reader never sees half a file. */
export const writeFaultsFile = (path: string, rules: FaultRules): void => {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(rules, null, 2));
  renameSync(temporary, path);
};

const valueAt = (value: unknown, path: string): unknown => {
  let current = value;
  for (const key of path.replace(/^\$\.?/, '').split('.')) {
    if (key === '') continue;
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
};

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

const matches = (rule: FaultRule, state: string, taskInput: unknown, executionInput: unknown): boolean =>
  rule.state === state &&
  Object.entries(rule.match ?? {}).every(([path, expected]) => {
    const found = valueAt(taskInput, path);
    return sameJson(found !== undefined ? found : valueAt(executionInput, path), expected);
  });

export interface FaultInjector {
  /** The rule that makes this invocation fail (counted against its `times`), or undefined. */
  take(state: string, taskInput: unknown, executionInput: unknown): FaultRule | undefined;
}

/**
 * Counts invocations failed per rule (a rule is identified by its content). A rule that disappears
 * from the rules loses its count, so writing it again later starts afresh.
 */
export const createFaultInjector = (readRules: () => FaultRules): FaultInjector => {
  const failedSoFar = new Map<string, number>();
  let warnedAbout: string | undefined;

  const currentRules = (): FaultRules => {
    try {
      const rules = readRules();
      warnedAbout = undefined;
      return rules;
    } catch (error) {
      // A broken rules file must not fail the workflow it was meant to test: say so once, inject nothing.
      const message = (error as Error).message;
      if (warnedAbout !== message) console.error(`[local-step-functions] fault rules ignored: ${message}`);
      warnedAbout = message;
      return [];
    }
  };

  return {
    take(state, taskInput, executionInput) {
      const rules = currentRules();
      const keys = new Set(rules.map((rule) => JSON.stringify(rule)));
      for (const key of failedSoFar.keys()) if (!keys.has(key)) failedSoFar.delete(key);

      for (const rule of rules) {
        if (!matches(rule, state, taskInput, executionInput)) continue;
        const key = JSON.stringify(rule);
        const failed = failedSoFar.get(key) ?? 0;
        if (rule.times !== undefined && failed >= rule.times) continue;
        failedSoFar.set(key, failed + 1);
        return rule;
      }
      return undefined;
    },
  };
};
