import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { asyncJobsFromEnvironment } from '../../../functions/adapters/jobs/async-jobs';
import type { TestJob } from '../../../functions/core/testing/test-records';
import { startAwsEndpointServer } from '../fakes/aws-endpoint-server';
import { tempDirs } from '../workspace/temp-dir';

const dirs = tempDirs();
afterAll(() => dirs.removeAll());

/** Lambda's Invoke endpoint stands on 127.0.0.1; the signer takes the credentials from the environment. */
const lambda = async (answers?: Parameters<typeof startAwsEndpointServer>[0]) => {
  const server = await startAwsEndpointServer(answers);
  const env = { AWS_REGION: 'us-east-1', AWS_ENDPOINT_URL_LAMBDA: server.endpoint };
  return { ...server, env };
};
const savedCredentials = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
beforeAll(() => {
  process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
  process.env.AWS_SECRET_ACCESS_KEY = 'secret';
});
afterAll(() => {
  if (savedCredentials.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
  else process.env.AWS_ACCESS_KEY_ID = savedCredentials.id;
  if (savedCredentials.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  else process.env.AWS_SECRET_ACCESS_KEY = savedCredentials.secret;
});

const names = { module: 'LOCAL_TEST_JOBS_MODULE', function: 'TESTS_FUNCTION_NAME' };
const job: TestJob = { action: 'generate', ref: { account_id: 'acct_1', mode: 'test', id: 'test_01JD2Q8X4B6V3C1N0M9K8J7H6G' } };

/**
 * A handler module that appends each job it gets to `calls.log` (and its own loading to
 * `loads.log`), then never settles, or rejects when the job's id says so: start() must not wait for it.
 */
const handlerModule = async () => {
  const dir = await dirs.make('async-jobs-');
  const calls = join(dir, 'calls.log');
  const loads = join(dir, 'loads.log');
  const path = join(dir, 'handler.mjs');
  await writeFile(
    path,
    [
      "import { appendFileSync } from 'node:fs';",
      `appendFileSync(${JSON.stringify(loads)}, 'loaded\\n');`,
      'export const handler = (job) => {',
      `  appendFileSync(${JSON.stringify(calls)}, JSON.stringify(job) + '\\n');`,
      "  if (job.ref.id === 'reject') return Promise.reject(new Error('the job blew up'));",
      '  return new Promise(() => {});',
      '};',
      '',
    ].join('\n'),
  );
  const lines = async (file: string): Promise<string[]> => (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  return { path, calls: () => lines(calls).then((all) => all.map((line) => JSON.parse(line) as TestJob)), loads: () => lines(loads) };
};

describe('asyncJobsFromEnvironment', () => {
  it('with the module variable set runs the handler in this process, without awaiting it, loading the module once', async () => {
    const module = await handlerModule();
    const server = await lambda();
    const jobs = asyncJobsFromEnvironment<TestJob>(names, {
      ...server.env,
      LOCAL_TEST_JOBS_MODULE: module.path,
      TESTS_FUNCTION_NAME: 'also-set',
    });

    // The handler never settles: start() answering at all shows it was not awaited.
    await expect(jobs.start(job)).resolves.toBeUndefined();
    const second: TestJob = { action: 'run', ref: { ...job.ref, id: 'run_01JD2Q8X4B6V3C1N0M9K8J7H6G' } };
    await jobs.start(second);

    expect(await module.calls()).toEqual([job, second]);
    expect(await module.loads()).toEqual(['loaded']);
    expect(server.received).toHaveLength(0);
    await server.close();
  });

  it("logs a handler's rejection instead of failing start()", async () => {
    const module = await handlerModule();
    const jobs = asyncJobsFromEnvironment<TestJob>(names, { LOCAL_TEST_JOBS_MODULE: module.path });
    const logged: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => {
      logged.push(args);
    };
    try {
      await expect(jobs.start({ ...job, ref: { ...job.ref, id: 'reject' } })).resolves.toBeUndefined();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      console.error = original;
    }
    expect(logged).toEqual([['job generate reject failed:', expect.objectContaining({ message: 'the job blew up' })]]);
  });

  it('rejects start() when the module cannot be loaded', async () => {
    const dir = await dirs.make('async-jobs-');
    const jobs = asyncJobsFromEnvironment<TestJob>(names, { LOCAL_TEST_JOBS_MODULE: join(dir, 'missing.mjs') });
    await expect(jobs.start(job)).rejects.toThrow();
  });

  it('with only the function variable set invokes that function asynchronously (Event) with the job as JSON', async () => {
    const server = await lambda();
    const jobs = asyncJobsFromEnvironment<TestJob>(names, { ...server.env, TESTS_FUNCTION_NAME: 'svc-TestsFunction-123' });
    await jobs.start(job);
    await server.close();

    expect(server.received).toHaveLength(1);
    expect(server.received[0]).toMatchObject({
      method: 'POST',
      path: '/2015-03-31/functions/svc-TestsFunction-123/invocations',
      headers: expect.objectContaining({ 'x-amz-invocation-type': 'Event' }),
    });
    expect(JSON.parse(server.received[0]?.body ?? '')).toEqual(job);
  });

  it('treats an empty module variable as unset', async () => {
    const server = await lambda();
    const jobs = asyncJobsFromEnvironment<TestJob>(names, { ...server.env, LOCAL_TEST_JOBS_MODULE: '', TESTS_FUNCTION_NAME: 'fn' });
    await jobs.start(job);
    await server.close();
    expect(server.received).toHaveLength(1);
  });

  it('passes on a failed invocation, so the use case can fail the job', async () => {
    const server = await lambda([
      { status: 400, headers: { 'x-amzn-ErrorType': 'InvalidRequestContentException' }, body: '{"message":"bad payload"}' },
    ]);
    const jobs = asyncJobsFromEnvironment<TestJob>(names, { ...server.env, TESTS_FUNCTION_NAME: 'fn' });
    await expect(jobs.start(job)).rejects.toThrow('bad payload');
    await server.close();
  });

  it('throws, naming the function variable, when neither variable is set', () => {
    expect(() => asyncJobsFromEnvironment<TestJob>(names, {})).toThrow('TESTS_FUNCTION_NAME is not set');
    expect(() => asyncJobsFromEnvironment<TestJob>(names, { TESTS_FUNCTION_NAME: '', LOCAL_TEST_JOBS_MODULE: '' })).toThrow(
      'TESTS_FUNCTION_NAME is not set',
    );
  });
});
