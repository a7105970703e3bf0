import { jest } from '@jest/globals';
import { metricNames } from '../../../functions/observability/metric-names';
import { recordEventOutcome, recordRequest, recordWebhookAttempt, statusClassOf } from '../../../functions/observability/metrics';

/** The EMF documents written to stdout while `run` runs. */
const emfWrittenBy = (run: () => void): Record<string, any>[] => {
  const lines: string[] = [];
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    run();
  } finally {
    write.mockRestore();
  }
  return lines
    .flatMap((text) => text.split('\n'))
    .filter((line) => line.includes('"_aws"'))
    .map((line) => JSON.parse(line) as Record<string, any>);
};

const metricOf = (document: Record<string, any>) => document._aws.CloudWatchMetrics[0].Metrics[0].Name as string;

describe('service metrics (EMF)', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('writes nothing outside Lambda unless asked', () => {
    delete process.env.AWS_LAMBDA_FUNCTION_NAME;
    delete process.env.POWERTOOLS_METRICS_DISABLED;
    expect(emfWrittenBy(() => recordRequest('getProject', 200))).toEqual([]);
  });

  it('counts a request by route and status class', () => {
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    const [document] = emfWrittenBy(() => recordRequest('getProject', 404));
    expect(metricOf(document!)).toBe(metricNames.requests);
    expect(document).toMatchObject({ Requests: 1, route: 'getProject', status_class: '4xx' });
    expect(document!._aws.CloudWatchMetrics[0].Dimensions[0]).toEqual(expect.arrayContaining(['route', 'status_class']));
  });

  it("counts a webhook attempt by outcome and a first attempt's delay after its event", () => {
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    const documents = emfWrittenBy(() => recordWebhookAttempt('failed', 1234));
    expect(documents.map(metricOf)).toEqual([metricNames.webhookAttempts, metricNames.webhookFirstAttemptLatency]);
    expect(documents[0]).toMatchObject({ outcome: 'failed', WebhookAttempts: 1 });
    expect(documents[1]).toMatchObject({ WebhookFirstAttemptLatency: 1234 });
  });

  it('counts workflow and deployment outcomes, with their durations, from the events that end them', () => {
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    const documents = emfWrittenBy(() => {
      recordEventOutcome({ type: 'workflow.completed', data: { duration_ms: 5000 } });
      recordEventOutcome({ type: 'deployment.rollback', data: {} });
      recordEventOutcome({ type: 'workflow.stage.completed', data: { duration_ms: 10 } });
    });
    expect(documents.map((d) => [metricOf(d), d.outcome])).toEqual([
      [metricNames.workflowOutcomes, 'completed'],
      [metricNames.workflowDuration, 'completed'],
      [metricNames.deploymentOutcomes, 'rolled_back'],
    ]);
    expect(documents[1]).toMatchObject({ WorkflowDuration: 5000 });
  });

  it('names status classes', () => {
    expect([200, 201, 302, 404, 429, 500, 503].map(statusClassOf)).toEqual(['2xx', '2xx', '3xx', '4xx', '4xx', '5xx', '5xx']);
  });
});
