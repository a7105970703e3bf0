/**
 * The smoke tier: walks a deployed stack through its main paths over its public HTTPS API and
 * reports each step. Not part of `npm test` (which needs no AWS): `npm run smoke -- --api-url …`.
 */

export interface SmokeOptions {
  /** The stack's `ApiUrl` output, `/v1` included. */
  apiUrl: string;
  /** A test-mode API key with the scopes the walk uses. */
  apiKey: string;
  /** A git repository the deployment can read. */
  repository: string;
  /** Where the webhook step delivers: a receiver the operator controls, answering 2xx. */
  receiverUrl?: string;
  aiProvider: string;
  /** What the workflow is asked to do; a small, harmless change by default. */
  prompt?: string;
  /** How long to wait for a workflow or a scan to end. */
  timeoutMs: number;
  fetch?: typeof fetch;
  log?: (line: string) => void;
}

export interface StepResult {
  step: string;
  ok: boolean;
  detail: string;
  ms: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The fields of answers the walk reads. */
interface ApiRecord {
  id: string;
  status: string;
  error?: unknown;
  duration_ms?: number;
  attempts?: { status_code: number | null }[];
}

interface Answer {
  status: number;
  body?: { data?: ApiRecord; openapi?: string; paths?: { [path: string]: unknown } };
}

export const runSmoke = async (options: SmokeOptions): Promise<StepResult[]> => {
  const send = options.fetch ?? fetch;
  const log = options.log ?? ((line: string) => console.log(line));
  const base = options.apiUrl.replace(/\/+$/, '');
  const results: StepResult[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];

  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await send(`${base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${options.apiKey}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(method === 'POST' ? { 'Idempotency-Key': `smoke-${Date.now()}-${Math.random().toString(36).slice(2)}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    try {
      return { status: response.status, body: text ? (JSON.parse(text) as Answer['body']) : undefined };
    } catch {
      return { status: response.status };
    }
  };
  const expectStatus = (answer: Answer, status: number, what: string): ApiRecord => {
    const data = answer.body?.data;
    if (answer.status !== status || !data)
      throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)?.slice(0, 300)}`);
    return data;
  };
  /** Polls until `done` says the record has ended, or the timeout. */
  const until = async (path: string, done: (data: ApiRecord) => boolean, what: string): Promise<ApiRecord> => {
    const deadline = Date.now() + options.timeoutMs;
    for (;;) {
      const data = expectStatus(await call('GET', path), 200, what);
      if (done(data)) return data;
      if (Date.now() > deadline) throw new Error(`${what} still ${JSON.stringify(data?.status)} after ${options.timeoutMs} ms`);
      await sleep(2_000);
    }
  };
  const step = async <T>(name: string, work: () => Promise<{ value?: T; detail: string }>): Promise<T | undefined> => {
    const started = Date.now();
    try {
      const { value, detail } = await work();
      results.push({ step: name, ok: true, detail, ms: Date.now() - started });
      log(`PASS ${name}: ${detail}`);
      return value;
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      results.push({ step: name, ok: false, detail, ms: Date.now() - started });
      log(`FAIL ${name}: ${detail}`);
      return undefined;
    }
  };

  try {
    await step('openapi', async () => {
      const answer = await call('GET', '/openapi.json');
      if (answer.status !== 200 || typeof answer.body?.openapi !== 'string') throw new Error(`GET /openapi.json answered ${answer.status}`);
      return { detail: `OpenAPI ${answer.body.openapi}, ${Object.keys(answer.body.paths ?? {}).length} paths` };
    });

    const projectId = await step('project', async () => {
      const project = expectStatus(
        await call('POST', '/projects', { name: `smoke ${new Date().toISOString()}`, repository: options.repository }),
        201,
        'POST /projects',
      );
      cleanups.push(() => call('DELETE', `/projects/${project.id}`));
      expectStatus(await call('GET', `/projects/${project.id}`), 200, 'GET /projects/{id}');
      return { value: project.id, detail: `${project.id} created and read back` };
    });

    if (options.receiverUrl) {
      await step('webhook delivery', async () => {
        const webhook = expectStatus(
          await call('POST', '/webhooks', { url: options.receiverUrl, events: ['workflow.completed'], description: 'smoke test' }),
          201,
          'POST /webhooks',
        );
        cleanups.push(() => call('DELETE', `/webhooks/${webhook.id}`));
        const tested = expectStatus(
          await call('POST', `/webhooks/${webhook.id}/test`, { event_type: 'workflow.completed' }),
          202,
          'POST /webhooks/{id}/test',
        );
        const ok = tested?.attempts?.[0]?.status_code;
        if (typeof ok !== 'number' || ok < 200 || ok > 299)
          throw new Error(`the receiver answered ${JSON.stringify(ok)}: ${JSON.stringify(tested)}`);
        return { detail: `signed test event delivered to ${options.receiverUrl}, answered ${ok}` };
      });
    } else {
      results.push({ step: 'webhook delivery', ok: true, detail: 'skipped: no --receiver-url given', ms: 0 });
      log('SKIP webhook delivery: no --receiver-url given');
    }

    if (projectId) {
      await step('workflow', async () => {
        const created = expectStatus(
          await call('POST', '/workflows', {
            project_id: projectId,
            name: 'smoke test',
            prompt: options.prompt ?? 'Add a file SMOKE.md that says this repository was reached by the smoke test.',
            config: { ai_provider: options.aiProvider, max_iterations: 1 },
          }),
          201,
          'POST /workflows',
        );
        const done = await until(
          `/workflows/${created.id}`,
          (w) => ['completed', 'failed', 'cancelled'].includes(w.status),
          'the workflow',
        );
        if (done.status !== 'completed') throw new Error(`workflow ${done.id} ${done.status}: ${JSON.stringify(done.error)}`);
        return { detail: `${done.id} completed in ${done.duration_ms as number} ms` };
      });

      await step('security scan', async () => {
        const created = expectStatus(
          await call('POST', '/security/scans', { project_id: projectId, scan_types: ['secrets'] }),
          201,
          'POST /security/scans',
        );
        const done = await until(`/security/scans/${created.id}`, (scan) => ['completed', 'failed'].includes(scan.status), 'the scan');
        if (done.status !== 'completed') throw new Error(`scan ${done.id} ${done.status}: ${JSON.stringify(done.error)}`);
        return { detail: `${done.id} completed` };
      });
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
  return results;
};
