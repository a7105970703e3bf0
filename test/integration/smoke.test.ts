import { type StepResult, runSmoke } from '../../smoke/smoke-run';
import { startReceiver } from './support/receiver';
import { apiUrl, newAccount } from './support/runtime';
import { fixtureRepository } from './support/workflows';

/**
 * The smoke tier (`npm run smoke`), run against the local runtime instead of a deployed stack:
 * every step it walks passes here, so a failure against AWS points at the deployment.
 */
describe('npm run smoke', () => {
  it('walks a project, a webhook delivery to the given receiver, a workflow and a scan, and reports each', async () => {
    const { test: key } = await newAccount();
    const repository = await fixtureRepository();
    const receiver = await startReceiver({ status: 204 });
    const lines: string[] = [];
    let results: StepResult[];
    try {
      results = await runSmoke({
        apiUrl: apiUrl(),
        apiKey: key.key,
        repository: repository.url,
        receiverUrl: receiver.url('/smoke'),
        aiProvider: 'local',
        prompt: 'Add a smoke marker\n\n```js src/smoke.js\nexport const smoke = true;\n```\n',
        timeoutMs: 60_000,
        log: (line) => lines.push(line),
      });
    } finally {
      await receiver.close();
    }
    expect(results.map((r) => [r.step, r.ok, r.ok ? '' : r.detail])).toEqual([
      ['openapi', true, ''],
      ['project', true, ''],
      ['webhook delivery', true, ''],
      ['workflow', true, ''],
      ['security scan', true, ''],
    ]);
    expect(lines).toHaveLength(5);
    // The receiver got the signed test event first (the walk's workflow may follow it: the webhook
    // is subscribed to workflow.completed).
    expect(receiver.requests[0]!.headers).toMatchObject({ 'x-service-attempt': '1', 'x-service-event-type': 'workflow.completed' });
    expect(receiver.requests[0]!.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('reports the step that failed, with why', async () => {
    const results = await runSmoke({
      apiUrl: apiUrl(),
      apiKey: 'svc_test_not-a-key',
      repository: 'https://example.invalid/none.git',
      aiProvider: 'local',
      timeoutMs: 5_000,
      log: () => {},
    });
    const project = results.find((r) => r.step === 'project');
    expect(project).toMatchObject({ ok: false, detail: expect.stringMatching(/^POST \/projects answered 401/) });
  });
});
