import type { FieldIssue } from '../../errors';
import type { Mode } from '../../tenancy';

/**
 * The deployment provider port: what the deployment state machine asks of a place to deploy to
 * (a signed deploy hook, an AWS Lambda alias…). Adapters live in `functions/adapters/deployments/`.
 *
 * The state machine runs: `deploy` → `checkHealth` (one probe per task, with a Wait of
 * `healthSchedule(config).intervalSeconds` between probes, until healthy or
 * `timeoutSeconds` after the deploy ended) → completed; or failed, and with `auto_rollback`
 * `rollback` to the previous completed deployment of the same project, environment and provider.
 *
 * Errors: every method throws only `DeploymentTransientError` (retry the task) or
 * `DeploymentProviderError` (fail the deployment); anything else is a bug. `checkHealth` reports
 * an application that is not (yet) healthy as `{ healthy: false }`, not as an error.
 *
 * Configs are plain JSON (they are stored with the deployment and travel through the state
 * machine): `parseConfig` applies every default, and parsing its own output again gives the same
 * config.
 */
export interface DeploymentTarget {
  deployment_id: string;
  project: { id: string; name: string; repository: string };
  environment: string;
  branch: string;
  mode: Mode;
  artifact: { workflow_id: string; bundle: { location: string; sha256: string; size: number } | null } | null;
}

export interface DeployOutcome {
  url: string | null;
  version: string | null;
  /** Provider-specific, JSON, never a secret. */
  details: Record<string, unknown>;
}

export interface HealthOutcome {
  healthy: boolean;
  /** ISO 8601. */
  checked_at: string;
  status_code: number | null;
  latency_ms: number | null;
  /** One line for people: what was seen, e.g. `health check answered 503, expected 2xx`. */
  message: string;
}

export type ParsedConfig<C> = { ok: true; config: C } | { ok: false; issues: FieldIssue[] };

/** What parsing a config depends on besides the config itself. */
export interface ConfigContext {
  /** Which targets are allowed (live: https and public addresses only). */
  mode: Mode;
}

export interface DeploymentProvider<C> {
  readonly name: string;
  /**
   * Parses the provider's own config fields (the common fields `branch` and `auto_rollback` are
   * ignored, so the whole request `config` may be passed); issues name the field as
   * `config.<name>`. Asynchronous: URL targets are resolved and checked against the mode's policy.
   */
  parseConfig(config: Record<string, unknown>, context: ConfigContext): Promise<ParsedConfig<C>>;
  /** The config as shown in API answers: secrets replaced by a marker, never echoed. */
  redactConfig(config: C): Record<string, unknown>;
  deploy(target: DeploymentTarget, config: C): Promise<DeployOutcome>;
  /** One health probe (the state machine polls with Wait until healthy or the deadline). */
  checkHealth(target: DeploymentTarget, config: C, deployed: DeployOutcome): Promise<HealthOutcome>;
  /**
   * Makes `previous` current again; `current` is the deployment being rolled back. `config` is the
   * current deployment's config. The returned outcome describes what is now current (`previous`).
   */
  rollback(
    input: {
      current: { target: DeploymentTarget; deployed: DeployOutcome };
      previous: { target: DeploymentTarget; deployed: DeployOutcome };
    },
    config: C,
  ): Promise<DeployOutcome>;
}

/** Permanent failure: the hook answered 4xx/5xx, a refused target, a missing function, no access… */
export class DeploymentProviderError extends Error {
  override readonly name = 'DeploymentProviderError';
}

/** Worth a retry: throttling, 429/503, timeouts, a dropped connection. */
export class DeploymentTransientError extends Error {
  override readonly name = 'DeploymentTransientError';
}

/** Fields of the deployment `config` that belong to the service, not to a provider. */
export const commonConfigFields = ['branch', 'auto_rollback'] as const;

/** Every provider config carries these (defaults applied by `parseConfig`). */
export interface HealthSettings {
  /** How long after the deploy the application may take to become healthy. 10–900, default 120. */
  health_timeout_seconds: number;
  /** Wait between two probes. 1–60, default 5. */
  health_interval_seconds: number;
}

export const healthTimeoutSeconds = { min: 10, max: 900, default: 120 } as const;
export const healthIntervalSeconds = { min: 1, max: 60, default: 5 } as const;

/** For the state machine: poll every `intervalSeconds` until healthy or `timeoutSeconds` have passed. */
export const healthSchedule = (config: HealthSettings): { timeoutSeconds: number; intervalSeconds: number } => ({
  timeoutSeconds: config.health_timeout_seconds,
  intervalSeconds: config.health_interval_seconds,
});
