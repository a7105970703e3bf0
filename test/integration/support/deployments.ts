import { verifyWebhookSignature } from '../../../functions/core/webhooks/signature';
import type { as } from './http';
import { type Answer, eventually, type ReceivedRequest, startReceiver, type Receiver } from './receiver';
import { fixtureRepository } from './workflows';

type Api = ReturnType<typeof as>;

/** Long enough for the provider (16–256 characters), recognisable if it ever leaks. */
export const hookSecret = 'dhs_Integration-Secret-0123456789abcdef';

export const deploymentId = /^dep_[0-9A-HJKMNP-TV-Z]{26}$/;

/** What the hook was sent, as the hook saw it. */
export interface HookCall {
  request: ReceivedRequest;
  /** The X-Service-Signature verified with the config's secret. */
  verified: boolean;
  body: any;
}

export type HookAnswer = (body: any) => Answer;

/** By default a hook deploys and names the release: a JSON `{ url, version }` answer. */
export const releaseAnswer: HookAnswer = (body) => ({
  status: 200,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(
    body.type === 'deployment.requested'
      ? { url: `https://greeter.example.com/releases/${body.deployment_id}`, version: `v-${body.deployment_id.slice(-6)}` }
      : { status: 'rolled back' },
  ),
});

/**
 * A customer's deploy system on 127.0.0.1: a deploy hook that verifies the signature (401 when it
 * does not match) and answers as told, and a health endpoint answering as told. Each is a real
 * node:http server (the integration receiver).
 */
export interface DeployTarget {
  hook: Receiver;
  health: Receiver;
  secret: string;
  hookUrl: string;
  healthUrl: string;
  /** Every POST the hook received, oldest first. */
  calls(): HookCall[];
  /** The hook's calls of one `type` (`deployment.requested`, `deployment.rollback`). */
  callsOf(type: string): HookCall[];
  answerHookWith(answer: HookAnswer): void;
  answerHealthWith(answer: Answer | ((request: Omit<ReceivedRequest, 'answer' | 'answeredAt' | 'closedAt'>) => Answer)): void;
  /** Health probes received for one deployment (they carry X-Service-Deployment-Id). */
  probesOf(id: string): ReceivedRequest[];
  close(): Promise<void>;
}

export const startDeployTarget = async (options: { secret?: string; hook?: HookAnswer; health?: Answer } = {}): Promise<DeployTarget> => {
  const secret = options.secret ?? hookSecret;
  let hookAnswer: HookAnswer = options.hook ?? releaseAnswer;
  const verdicts = new Map<number, boolean>();
  const hook = await startReceiver((request) => {
    const verified = verifyWebhookSignature(request.rawBody, request.headers['x-service-signature'] as string | undefined, secret);
    verdicts.set(request.index, verified);
    if (!verified) return { status: 401, body: 'bad signature' };
    let body: any;
    try {
      body = JSON.parse(request.body);
    } catch {
      return { status: 400, body: 'not JSON' };
    }
    return hookAnswer(body);
  });
  const health = await startReceiver(options.health ?? { status: 200, body: 'ok' });
  const calls = (): HookCall[] =>
    hook.requests.map((request) => ({ request, verified: verdicts.get(request.index) ?? false, body: JSON.parse(request.body || 'null') }));
  return {
    hook,
    health,
    secret,
    hookUrl: hook.url('/deploy'),
    healthUrl: health.url('/healthz'),
    calls,
    callsOf: (type) => calls().filter((call) => call.body?.type === type),
    answerHookWith(answer) {
      hookAnswer = answer;
    },
    answerHealthWith(answer) {
      health.respondWith(answer);
    },
    probesOf: (id) => health.requests.filter((request) => request.headers['x-service-deployment-id'] === id),
    async close() {
      await Promise.all([hook.close(), health.close()]);
    },
  };
};

/** A deploy-hook config for `target`: fast health checks (10 s × 0.01 deadline, 1 s × 0.01 wait). */
export const hookConfig = (target: DeployTarget, overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  branch: 'main',
  hook_url: target.hookUrl,
  health_url: target.healthUrl,
  secret: target.secret,
  health_timeout_seconds: 10,
  health_interval_seconds: 1,
  ...overrides,
});

/** A project on a real fixture repository; its id. */
export const newProject = async (api: Api, name = 'Greeter'): Promise<string> => {
  const repository = await fixtureRepository();
  const created = await api.post('/projects', { name, repository: repository.url });
  if (created.status !== 201) throw new Error(`project creation answered ${created.status}: ${created.text}`);
  return created.body.data.id as string;
};

/** POST /deployments expecting 201; the new deployment. */
export const deploy = async (api: Api, body: Record<string, unknown>): Promise<any> => {
  const created = await api.post('/deployments', { environment: 'production', provider: 'deploy-hook', ...body });
  if (created.status !== 201) throw new Error(`deployment creation answered ${created.status}: ${created.text}`);
  return created.body.data;
};

export const finished = (deployment: any): boolean =>
  ['completed', 'rolled_back'].includes(deployment.status) ||
  (deployment.status === 'failed' && deployment.rollback?.status !== 'in_progress');

/** Polls GET /deployments/{id} until `done` holds (default: finished, any rollback included). */
export const waitForDeployment = (
  api: Api,
  id: string,
  done: (deployment: any) => boolean = finished,
  timeoutMs = 20_000,
): Promise<any> => {
  let last: any;
  return eventually(
    async () => {
      const answer = await api.get(`/deployments/${id}`);
      last = answer.body?.data;
      return last && done(last) ? last : undefined;
    },
    timeoutMs,
    () =>
      `deployment ${id} is ${JSON.stringify(last?.status)}, rollback ${JSON.stringify(last?.rollback)}, error ${JSON.stringify(last?.error)}`,
    // Well inside the runtime's rate limit of 20 requests a second.
    60,
  );
};

/** A deployment that completed, for set-up; fails loudly otherwise. */
export const completedDeployment = async (api: Api, body: Record<string, unknown>): Promise<any> => {
  const created = await deploy(api, body);
  const done = await waitForDeployment(api, created.id);
  if (done.status !== 'completed') throw new Error(`set-up deployment ${created.id} is ${done.status}: ${JSON.stringify(done.error)}`);
  return done;
};

export const deploymentEvents = ['deployment.started', 'deployment.completed', 'deployment.failed', 'deployment.rollback'];

/** The events a webhook receiver got about one deployment, in event (creation) order. */
export const eventsAbout = (receiver: Receiver, id: string): any[] =>
  receiver.requests
    .map((request) => JSON.parse(request.body))
    .filter((event) => event.data?.id === id)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** Waits until the receiver holds `count` events about the deployment. */
export const waitForEvents = (receiver: Receiver, id: string, count: number, timeoutMs = 15_000): Promise<any[]> =>
  eventually(
    () => {
      const events = eventsAbout(receiver, id);
      return events.length >= count ? events : undefined;
    },
    timeoutMs,
    () => `expected ${count} event(s) about ${id}, got ${JSON.stringify(eventsAbout(receiver, id).map((event) => event.type))}`,
  );
