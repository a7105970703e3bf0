import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { asyncJobsFromEnvironment } from '../../../functions/adapters/jobs/async-jobs';
import type { TestJob } from '../../../functions/core/testing/test-records';
import { tempDirs } from '../workspace/temp-dir';

const lambda = mockClient(LambdaClient);
const dirs = tempDirs();
afterAll(() => dirs.removeAll());
beforeEach(() => lambda.reset());

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
    const jobs = asyncJobsFromEnvironment<TestJob>(names, { LOCAL_TEST_JOBS_MODULE: module.path, TESTS_FUNCTION_NAME: 'also-set' });

    // The handler never settles: start() answering at all shows it was not awaited.
    await expect(jobs.start(job)).resolves.toBeUndefined();
    const second: TestJob = { action: 'run', ref: { ...job.ref, id: 'run_01JD2Q8X4B6V3C1N0M9K8J7H6G' } };
    await jobs.start(second);

    expect(await module.calls()).toEqual([job, second]);
    expect(await module.loads()).toEqual(['loaded']);
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
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
    lambda.on(InvokeCommand).resolves({ StatusCode: 202 });
    const jobs = asyncJobsFromEnvironment<TestJob>(names, { TESTS_FUNCTION_NAME: 'svc-TestsFunction-123' });
    await jobs.start(job);

    const calls = lambda.commandCalls(InvokeCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]!.args[0].input;
    expect(input).toMatchObject({ FunctionName: 'svc-TestsFunction-123', InvocationType: 'Event' });
    expect(JSON.parse(Buffer.from(input.Payload as Uint8Array).toString('utf8'))).toEqual(job);
  });

  it('treats an empty module variable as unset', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 202 });
    const jobs = asyncJobsFromEnvironment<TestJob>(names, { LOCAL_TEST_JOBS_MODULE: '', TESTS_FUNCTION_NAME: 'fn' });
    await jobs.start(job);
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(1);
  });

  it('passes on a failed invocation, so the use case can fail the job', async () => {
    lambda.on(InvokeCommand).rejects(new Error('Rate exceeded'));
    const jobs = asyncJobsFromEnvironment<TestJob>(names, { TESTS_FUNCTION_NAME: 'fn' });
    await expect(jobs.start(job)).rejects.toThrow('Rate exceeded');
  });

  it('throws, naming the function variable, when neither variable is set', () => {
    expect(() => asyncJobsFromEnvironment<TestJob>(names, {})).toThrow('TESTS_FUNCTION_NAME is not set');
    expect(() => asyncJobsFromEnvironment<TestJob>(names, { TESTS_FUNCTION_NAME: '', LOCAL_TEST_JOBS_MODULE: '' })).toThrow(
      'TESTS_FUNCTION_NAME is not set',
    );
  });
});
