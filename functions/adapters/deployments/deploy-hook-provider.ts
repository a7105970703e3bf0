import { type Clock, isoTime, systemClock } from '../../core/clock';
import {
  type DeploymentProvider,
  DeploymentProviderError,
  type DeploymentTarget,
  DeploymentTransientError,
  type DeployOutcome,
  type HealthOutcome,
} from '../../core/deployments/providers/provider';
import type { Mode } from '../../core/tenancy';
import { signatureHeader, signatureHeaderName } from '../../core/webhooks/signature';
import type { TargetPolicy } from '../../core/webhooks/target-policy';
import { checkTargetUrl } from '../http/target-address';
import { assessTarget } from '../http/target-resolution';
import { type AttemptResult, type LookupAll, postWebhook, type WebhookRequest } from '../http/webhook-http-client';
import { targetPolicyFor } from '../runtime/webhook-runtime';
import { type DeployHookConfig, deployHookProviderName, redactDeployHookConfig } from './deploy-hook-config';
import { deployHookConfigParser, type DeployHookParseOptions } from './deploy-hook-config-parser';
import { type Probe, probe as guardedProbe } from './http-probe';

export { type DeployHookConfig, deployHookProviderName } from './deploy-hook-config';

/**
 * The `deploy-hook` provider: the service asks the customer's own deploy system to deploy, by a
 * signed POST (same signature scheme as webhooks: `X-Service-Signature: t=…,v1=…`, keyed with the
 * config's `secret`), then probes `health_url` with GET.
 *
 * Config:
 *   hook_url                 https (http allowed in test mode); public address (private/loopback only
 *                            for test mode in the local runtime). Checked at parse time and again on
 *                            every request (resolved, pinned, no redirects, 10 s).
 *   health_url               same rules.
 *   secret                   16–256 characters. Write-only: `redactConfig` shows `secret: "set"` and
 *                            nothing of its value (not even the last characters: a 16-character
 *                            secret would give away a quarter of itself).
 *   expected_status          200–599; default null, meaning any 2xx is healthy. Redirects are not
 *                            followed, so a 3xx can be expected.
 *   health_timeout_seconds   10–900, default 120.   health_interval_seconds  1–60, default 5.
 *
 * The hook's POST body:
 *   { type: "deployment.requested", deployment_id, project: {id, name, repository}, environment,
 *     branch, artifact }
 *   { type: "deployment.rollback", deployment_id (the one rolled back), rollback_to (the deployment
 *     made current again), version, url, project, environment, branch, artifact (of rollback_to) }
 * with headers X-Service-Signature, X-Service-Deployment-Id, User-Agent, Content-Type. A retried
 * task sends the same body again (freshly signed): receivers should treat `deployment_id` (and
 * `type`) as an idempotency key.
 *
 * The hook may answer JSON `{ "url": "https://…", "version": "…" }` (within the first 4 KiB);
 * otherwise the deployment's url is null and its version the deployment id.
 *
 * Outcomes: 2xx → success; 429 and 503 → DeploymentTransientError; any other status (3xx
 * included: redirects are not followed) → DeploymentProviderError; timeout, connection, DNS or TLS
 * failure → DeploymentTransientError naming the class; a refused target → DeploymentProviderError.
 */
export const deployHookUserAgent = 'ProjectAutomationService-Deployments/1.0';
export const deploymentIdHeaderName = 'X-Service-Deployment-Id';

export interface DeployHookOptions extends DeployHookParseOptions {
  /** One POST. Default: `postWebhook`. */
  send?: (request: WebhookRequest) => Promise<AttemptResult>;
  /** One GET. Default: the guarded `probe`. */
  probe?: Probe;
  /** Signature timestamps and `checked_at`. */
  clock?: Clock;
  userAgent?: string;
  /** Bound on one hook request (deploy, rollback). Default 10 000 ms. */
  hookTimeoutMs?: number;
  /** Bound on one health probe. Default 10 000 ms. */
  probeTimeoutMs?: number;
  /** Resolver for requests (tests). Default: the system resolver. */
  lookup?: LookupAll;
}

const maxVersionLength = 256;

/** The hook's JSON answer, if it is one. */
const answerOf = (excerpt: string): Record<string, unknown> => {
  try {
    const parsed: unknown = JSON.parse(excerpt);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** The answer's `url` when it is a valid https URL (or http in test mode) without credentials. */
const answeredUrl = (answer: Record<string, unknown>, mode: Mode): string | null => {
  const { url } = answer;
  if (typeof url !== 'string') return null;
  // Shown, never fetched: only the scheme, length and credential checks matter, not the address.
  const checked = checkTargetUrl(url, { requireHttps: mode === 'live', allowPrivate: true });
  return checked.ok ? checked.url.href : null;
};

const answeredVersion = (answer: Record<string, unknown>): string | null => {
  const { version } = answer;
  if (typeof version === 'number' && Number.isFinite(version)) return String(version);
  if (typeof version !== 'string') return null;
  const trimmed = version.trim();
  return trimmed === '' || trimmed.length > maxVersionLength ? null : trimmed;
};

const hookFailure = (what: string, result: AttemptResult): Error => {
  if (result.error === 'refused_target')
    return new DeploymentProviderError(`${what} target refused: ${result.errorMessage ?? 'not allowed'}`);
  if (result.statusCode !== null && (result.error === 'http_status' || result.error === null)) {
    const message = `${what} answered ${result.statusCode}`;
    return result.statusCode === 429 || result.statusCode === 503
      ? new DeploymentTransientError(message)
      : new DeploymentProviderError(message);
  }
  return new DeploymentTransientError(`${what} failed (${result.error ?? 'connection'}): ${result.errorMessage ?? 'no answer'}`);
};

const payloadProject = (target: DeploymentTarget) => ({
  id: target.project.id,
  name: target.project.name,
  repository: target.project.repository,
});

export const deployHookProvider = (options: DeployHookOptions = {}): DeploymentProvider<DeployHookConfig> => {
  const policyFor = options.policyFor ?? targetPolicyFor;
  const assess = options.assessTarget ?? ((url: string, policy: TargetPolicy) => assessTarget(url, policy));
  const send = options.send ?? postWebhook;
  const probe = options.probe ?? guardedProbe;
  const clock = options.clock ?? systemClock;
  const userAgent = options.userAgent ?? deployHookUserAgent;

  const post = async (what: string, target: DeploymentTarget, config: DeployHookConfig, payload: Record<string, unknown>) => {
    const body = JSON.stringify(payload);
    const result = await send({
      url: config.hook_url,
      body,
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': userAgent,
        [signatureHeaderName]: signatureHeader(body, [config.secret], Math.floor(clock.now() / 1000)),
        [deploymentIdHeaderName]: target.deployment_id,
      },
      policy: policyFor(target.mode),
      ...(options.hookTimeoutMs === undefined ? {} : { timeoutMs: options.hookTimeoutMs }),
      ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
    });
    if (!result.ok) throw hookFailure(what, result);
    return { status: result.statusCode, answer: answerOf(result.responseExcerpt) };
  };

  return {
    name: deployHookProviderName,

    parseConfig: deployHookConfigParser({ policyFor, assessTarget: assess }),

    redactConfig: redactDeployHookConfig,

    async deploy(target, config): Promise<DeployOutcome> {
      const { status, answer } = await post('deploy hook', target, config, {
        type: 'deployment.requested',
        deployment_id: target.deployment_id,
        project: payloadProject(target),
        environment: target.environment,
        branch: target.branch,
        artifact: target.artifact,
      });
      return {
        url: answeredUrl(answer, target.mode),
        version: answeredVersion(answer) ?? target.deployment_id,
        details: { hook_status: status },
      };
    },

    async checkHealth(target, config): Promise<HealthOutcome> {
      const result = await probe({
        url: config.health_url,
        headers: { 'User-Agent': userAgent, [deploymentIdHeaderName]: target.deployment_id },
        policy: policyFor(target.mode),
        ...(options.probeTimeoutMs === undefined ? {} : { timeoutMs: options.probeTimeoutMs }),
        ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
      });
      // A target that is refused now (its name resolves to a forbidden address) will stay refused.
      if (result.error === 'refused_target')
        throw new DeploymentProviderError(`health check target refused: ${result.errorMessage ?? 'not allowed'}`);
      const outcome = (healthy: boolean, message: string): HealthOutcome => ({
        healthy,
        checked_at: isoTime(clock.now()),
        status_code: result.statusCode,
        latency_ms: result.durationMs,
        message,
      });
      if (result.statusCode === null)
        return outcome(false, `health check failed (${result.error ?? 'connection'}): ${result.errorMessage ?? 'no answer'}`);
      const status = result.statusCode;
      const healthy = config.expected_status === null ? status >= 200 && status < 300 : status === config.expected_status;
      const expected = config.expected_status === null ? '2xx' : String(config.expected_status);
      return outcome(healthy, healthy ? `health check answered ${status}` : `health check answered ${status}, expected ${expected}`);
    },

    async rollback({ current, previous }, config): Promise<DeployOutcome> {
      const { status, answer } = await post('rollback hook', current.target, config, {
        type: 'deployment.rollback',
        deployment_id: current.target.deployment_id,
        rollback_to: previous.target.deployment_id,
        version: previous.deployed.version,
        url: previous.deployed.url,
        project: payloadProject(previous.target),
        environment: previous.target.environment,
        branch: previous.target.branch,
        artifact: previous.target.artifact,
      });
      return {
        url: answeredUrl(answer, current.target.mode) ?? previous.deployed.url,
        version: answeredVersion(answer) ?? previous.deployed.version ?? previous.target.deployment_id,
        details: { hook_status: status, rolled_back_from: current.target.deployment_id },
      };
    },
  };
};
