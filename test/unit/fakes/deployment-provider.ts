import type { FieldIssue } from '../../../functions/core/errors';
import type { ProviderCatalogue } from '../../../functions/core/deployments/deployment-use-cases';
import {
  commonConfigFields,
  type ConfigContext,
  type DeploymentProvider,
  type DeploymentTarget,
  type DeployOutcome,
  type HealthOutcome,
  type ParsedConfig,
} from '../../../functions/core/deployments/providers/provider';

type Config = Record<string, unknown>;

export type ProviderCall =
  | { method: 'parseConfig'; config: Config; context: ConfigContext }
  | { method: 'deploy'; target: DeploymentTarget; config: Config }
  | { method: 'checkHealth'; target: DeploymentTarget; config: Config; deployed: DeployOutcome }
  | {
      method: 'rollback';
      current: { target: DeploymentTarget; deployed: DeployOutcome };
      previous: { target: DeploymentTarget; deployed: DeployOutcome };
      config: Config;
    };

/** One scripted answer: a value, or an error to throw. */
export type Scripted<T> = T | Error;

export const defaultHealthSettings = { health_timeout_seconds: 120, health_interval_seconds: 5 } as const;

/**
 * A DeploymentProvider that records every call (with copies of its arguments) and answers from
 * per-method scripts: each call takes the next scripted answer (an Error is thrown), and once a
 * script is empty the method answers its default (`defaults`, changeable by the test).
 *
 * parseConfig drops the common fields, applies the health defaults, and answers `configIssues`
 * instead when a test sets them.
 */
export const fakeDeploymentProvider = (name = 'fake') => {
  const calls: ProviderCall[] = [];
  let deploys = 0;
  const script = {
    deploy: [] as Scripted<DeployOutcome>[],
    checkHealth: [] as Scripted<Partial<HealthOutcome>>[],
    rollback: [] as Scripted<DeployOutcome>[],
  };
  const behaviour: { configIssues: FieldIssue[] | null; healthy: boolean; rollbackUrl: string | null } = {
    configIssues: null,
    healthy: true,
    rollbackUrl: 'https://previous.example.test',
  };

  const next = <T>(queue: Scripted<T>[], fallback: () => T): T => {
    const answer = queue.length > 0 ? queue.shift()! : fallback();
    if (answer instanceof Error) throw answer;
    return answer;
  };

  const provider: DeploymentProvider<Config> = {
    name,
    async parseConfig(config, context): Promise<ParsedConfig<Config>> {
      calls.push({ method: 'parseConfig', config: structuredClone(config), context: { ...context } });
      if (behaviour.configIssues) return { ok: false, issues: behaviour.configIssues.map((issue) => ({ ...issue })) };
      const own = Object.fromEntries(
        Object.entries(config).filter(([field]) => !(commonConfigFields as readonly string[]).includes(field)),
      );
      return { ok: true, config: { ...defaultHealthSettings, ...own } };
    },
    redactConfig(config) {
      return { ...config, secret: config.secret === undefined ? undefined : '[redacted]' };
    },
    async deploy(target, config) {
      calls.push({ method: 'deploy', target: structuredClone(target), config: structuredClone(config) });
      deploys += 1;
      return next(script.deploy, () => ({
        url: `https://${target.deployment_id}.example.test`,
        version: `v${deploys}`,
        details: { deploys },
      }));
    },
    async checkHealth(target, config, deployed) {
      calls.push({
        method: 'checkHealth',
        target: structuredClone(target),
        config: structuredClone(config),
        deployed: structuredClone(deployed),
      });
      const partial = next<Partial<HealthOutcome>>(script.checkHealth, () => ({}));
      const healthy = partial.healthy ?? behaviour.healthy;
      return {
        healthy,
        checked_at: partial.checked_at ?? new Date(0).toISOString(),
        status_code: partial.status_code ?? (healthy ? 200 : 503),
        latency_ms: partial.latency_ms ?? 12,
        message: partial.message ?? (healthy ? 'health check answered 200' : 'health check answered 503, expected 2xx'),
      };
    },
    async rollback(input, config) {
      calls.push({
        method: 'rollback',
        current: structuredClone(input.current),
        previous: structuredClone(input.previous),
        config: structuredClone(config),
      });
      return next(script.rollback, () => ({
        url: behaviour.rollbackUrl,
        version: input.previous.deployed.version,
        details: { restored: true },
      }));
    },
  };

  const callsOf = <M extends ProviderCall['method']>(method: M) =>
    calls.filter((call): call is Extract<ProviderCall, { method: M }> => call.method === method);
  return { ...provider, calls, script, behaviour, callsOf };
};

export type FakeDeploymentProvider = ReturnType<typeof fakeDeploymentProvider>;

/** The use cases' catalogue over fake providers, in the order given. */
export const fakeProviderCatalogue = (providers: FakeDeploymentProvider[]): ProviderCatalogue => {
  const byName = new Map(providers.map((provider) => [provider.name, provider]));
  return {
    names: () => [...byName.keys()],
    parseConfig(name, config, context) {
      const provider = byName.get(name);
      if (!provider) throw new Error(`parseConfig asked of unknown provider ${name}`);
      return provider.parseConfig(config, context);
    },
  };
};
