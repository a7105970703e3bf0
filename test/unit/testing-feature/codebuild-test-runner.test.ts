import { readFileSync } from 'node:fs';
import { BatchGetBuildsCommand, CodeBuildClient, StartBuildCommand, StopBuildCommand } from '@aws-sdk/client-codebuild';
import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { unzipSync } from 'fflate';
import { codeBuildTestRunner } from '../../../functions/adapters/testing/codebuild-test-runner';
import { parseJestJson, parseJUnitXml } from '../../../functions/adapters/testing/reports';
import type { Framework } from '../../../functions/core/testing/results';
import { tempDirs, writeTree } from '../workspace/temp-dir';

const s3 = mockClient(S3Client);
const codebuild = mockClient(CodeBuildClient);
const dirs = tempDirs();
afterAll(() => dirs.removeAll());

const bucket = 'artifact-bucket';
const projectName = 'TestsRunner-abc';
const kmsKeyId = 'arn:aws:kms:eu-west-1:123456789012:key/k';
/** Where CodeBuild puts an S3 source: jest's report names files under it. */
const codeBuildSourceDir = '/codebuild/output/src4211873/src';

const sample = (name: string): string => readFileSync(new URL(`../testing-run/samples/${name}`, import.meta.url), 'utf8');
const jestReport = sample('jest.json').split('/tmp/sample-repo').join(codeBuildSourceDir);
const vitestReport = sample('vitest.xml');

/** What GetObject's Body offers the adapter (the SDK's stream mixin). */
const bodyOf = (text: string) => ({ transformToString: async () => text }) as never;
const noSuchKey = () => new NoSuchKey({ message: 'The specified key does not exist.', $metadata: {} });

/** Answers GetObject from `objects` (key relative to the run's prefix → text), NoSuchKey otherwise. */
const serveOutputs = (objects: Record<string, string>) => {
  s3.on(GetObjectCommand).callsFake((input: { Key: string }) => {
    const relative = input.Key.replace(/^tests\/[0-9a-f-]{36}\//, '');
    const text = objects[relative];
    if (text === undefined) throw noSuchKey();
    return { Body: bodyOf(text) };
  });
};

const runnerWith = (options: { kmsKeyId?: string; pollIntervalMs?: number } = { kmsKeyId }) => {
  const sleeps: number[] = [];
  const runner = codeBuildTestRunner({
    codebuild: new CodeBuildClient({}),
    s3: new S3Client({}),
    projectName,
    bucket,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  return { runner, sleeps };
};

const tree = async (): Promise<string> => {
  const dir = await dirs.make('codebuild-tests-');
  await writeTree(dir, {
    'package.json': '{"devDependencies":{"jest":"^30.0.0"}}',
    'src/math.js': 'exports.add = (a, b) => a + b;\n',
    '__tests__/math.test.js': "test('adds', () => {});\n",
    '.git/HEAD': 'ref: refs/heads/main\n',
    '.git/objects/ab/cdef': 'blob',
    'node_modules/jest/package.json': '{}',
    'packages/a/node_modules/x/index.js': 'module.exports = 1;\n',
  });
  return dir;
};

const putInput = () => s3.commandCalls(PutObjectCommand)[0]!.args[0].input;
const prefixOf = () => /^(tests\/[0-9a-f-]{36})\/source\.zip$/.exec(putInput().Key!)![1]!;

beforeEach(() => {
  s3.reset();
  codebuild.reset();
  s3.on(PutObjectCommand).resolves({});
  codebuild.on(StartBuildCommand).resolves({ build: { id: `${projectName}:b-1`, buildStatus: 'IN_PROGRESS' } });
  codebuild
    .on(BatchGetBuildsCommand)
    .resolvesOnce({ builds: [{ id: `${projectName}:b-1`, buildStatus: 'IN_PROGRESS', currentPhase: 'PROVISIONING' }] })
    .resolvesOnce({ builds: [{ id: `${projectName}:b-1`, buildStatus: 'IN_PROGRESS', currentPhase: 'BUILD' }] })
    .resolves({ builds: [{ id: `${projectName}:b-1`, buildStatus: 'SUCCEEDED', currentPhase: 'COMPLETED' }] });
});

describe('zipTree, as the runner uploads it', () => {
  it('zips a tree', async () => {
    serveOutputs({ 'out/report.json': jestReport });
    const { runner } = runnerWith();
    await runner.run({ dir: await tree(), framework: 'jest', timeoutSeconds: 300 });
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(1);
  });
});

describe('codeBuildTestRunner', () => {
  it('uploads the tree as a zip under tests/<uuid>/source.zip, encrypted with the artifact key, without .git and node_modules', async () => {
    serveOutputs({ 'out/report.json': jestReport, 'out/exit-code': '1\n', 'out/output.log': 'Tests: 2 failed' });
    const { runner } = runnerWith();
    await runner.run({ dir: await tree(), framework: 'jest', timeoutSeconds: 300 });

    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(1);
    const input = putInput();
    expect(input).toMatchObject({ Bucket: bucket, ServerSideEncryption: 'aws:kms', SSEKMSKeyId: kmsKeyId });
    expect(input.Key).toMatch(/^tests\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\/source\.zip$/);
    const files = unzipSync(input.Body as Uint8Array);
    expect(Object.keys(files).sort()).toEqual(['__tests__/math.test.js', 'package.json', 'src/math.js']);
    expect(Buffer.from(files['src/math.js']!).toString()).toBe('exports.add = (a, b) => a + b;\n');
  });

  it('uses S3-managed encryption when no key is configured', async () => {
    serveOutputs({ 'out/report.json': jestReport });
    const { runner } = runnerWith({});
    await runner.run({ dir: await tree(), framework: 'jest', timeoutSeconds: 300 });
    expect(putInput()).toMatchObject({ ServerSideEncryption: 'AES256' });
    expect(putInput().SSEKMSKeyId).toBeUndefined();
  });

  it('starts a build of the project on that source, its artifacts to the same prefix, with the framework, files and timeout', async () => {
    serveOutputs({ 'out/report.json': jestReport });
    const { runner } = runnerWith();
    await runner.run({ dir: await tree(), framework: 'jest', timeoutSeconds: 300, files: ['__tests__/a.test.js', 'src/b.test.js'] });

    const prefix = prefixOf();
    expect(codebuild.commandCalls(StartBuildCommand)).toHaveLength(1);
    expect(codebuild.commandCalls(StartBuildCommand)[0]!.args[0].input).toEqual({
      projectName,
      sourceTypeOverride: 'S3',
      sourceLocationOverride: `${bucket}/${prefix}/source.zip`,
      artifactsOverride: { type: 'S3', location: bucket, path: prefix, name: 'out', packaging: 'NONE', namespaceType: 'NONE' },
      timeoutInMinutesOverride: 10,
      environmentVariablesOverride: [
        { name: 'FRAMEWORK', value: 'jest', type: 'PLAINTEXT' },
        // One path per line (the buildspec reads them into an array).
        { name: 'TEST_FILES', value: '__tests__/a.test.js\nsrc/b.test.js', type: 'PLAINTEXT' },
        { name: 'TEST_TIMEOUT_SECONDS', value: '300', type: 'PLAINTEXT' },
      ],
    });
  });

  it.each([
    [1, 6],
    [60, 6],
    [61, 7],
    [900, 20],
  ])('a run of %i s gets a build timeout of %i minutes: its whole minutes and 5 more', async (seconds, minutes) => {
    serveOutputs({ 'out/report.json': jestReport });
    const { runner } = runnerWith();
    await runner.run({ dir: await tree(), framework: 'jest', timeoutSeconds: seconds });
    const input = codebuild.commandCalls(StartBuildCommand)[0]!.args[0].input;
    expect(input.timeoutInMinutesOverride).toBe(minutes);
    expect(input.environmentVariablesOverride).toContainEqual({ name: 'TEST_FILES', value: '', type: 'PLAINTEXT' });
  });

  it('polls BatchGetBuilds, sleeping the poll interval before each, until the build is done', async () => {
    serveOutputs({ 'out/report.json': jestReport });
    const { runner, sleeps } = runnerWith({ kmsKeyId, pollIntervalMs: 250 });
    await runner.run({ dir: await tree(), framework: 'jest', timeoutSeconds: 300 });
    expect(codebuild.commandCalls(BatchGetBuildsCommand).map((call) => call.args[0].input)).toEqual([
      { ids: [`${projectName}:b-1`] },
      { ids: [`${projectName}:b-1`] },
      { ids: [`${projectName}:b-1`] },
    ]);
    expect(sleeps).toEqual([250, 250, 250]);
    // 5 s between polls unless told otherwise.
    const defaults = runnerWith();
    codebuild.on(BatchGetBuildsCommand).resolves({ builds: [{ id: `${projectName}:b-1`, buildStatus: 'SUCCEEDED' }] });
    await defaults.runner.run({ dir: await tree(), framework: 'jest', timeoutSeconds: 300 });
    expect(defaults.sleeps).toEqual([5000]);
  });

  it('stops a build still running when the function can wait no longer, and answers it failed, timed out', async () => {
    codebuild.on(BatchGetBuildsCommand).resolves({ builds: [{ id: `${projectName}:b-1`, buildStatus: 'IN_PROGRESS' }] });
    codebuild.on(StopBuildCommand).resolves({});
    let clock = 0;
    const runner = codeBuildTestRunner({
      codebuild: new CodeBuildClient({}),
      s3: new S3Client({}),
      projectName,
      bucket,
      maxWaitMs: 60_000,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
    });
    const result = await runner.run({ dir: await tree(), framework: 'jest', timeoutSeconds: 300 });
    expect(result).toMatchObject({ status: 'failed', timed_out: true, reason: expect.stringContaining('was stopped') });
    expect(codebuild.commandCalls(StopBuildCommand).map((call) => call.args[0].input)).toEqual([{ id: `${projectName}:b-1` }]);
  });

  it("reads jest's report.json from the run's out/ and parses it into the results, with the exit code and the log's tail", async () => {
    const log = `${'x'.repeat(5000)}Tests: 2 failed, 3 passed`;
    serveOutputs({ 'out/report.json': jestReport, 'out/exit-code': '1\n', 'out/output.log': log, 'out/report.xml': '<not-read/>' });
    const { runner } = runnerWith();
    const results = await runner.run({ dir: await tree(), framework: 'jest', timeoutSeconds: 300 });

    const keys = s3.commandCalls(GetObjectCommand).map((call) => call.args[0].input);
    const prefix = prefixOf();
    expect(keys).toEqual(
      ['out/output.log', 'out/exit-code', 'out/report.json', 'out/source-dir'].map((key) => ({ Bucket: bucket, Key: `${prefix}/${key}` })),
    );
    const parsed = parseJestJson(jestReport);
    expect(results).toEqual({
      status: 'completed',
      reason: null,
      totals: { passed: 3, failed: 2, skipped: 2, errored: 1 },
      cases: parsed.cases,
      duration_ms: expect.any(Number),
      log_excerpt: log.slice(-4096),
      exit_code: 1,
      timed_out: false,
    });
    expect(results.log_excerpt).toHaveLength(4096);
  });

  // The buildspec records the build's source directory; paths under it become repository-relative.
  it("names jest cases' files relative to the repository", async () => {
    serveOutputs({ 'out/report.json': jestReport, 'out/exit-code': '1\n', 'out/source-dir': '/codebuild/output/src4211873/src\n' });
    const { runner } = runnerWith();
    const results = await runner.run({ dir: await tree(), framework: 'jest', timeoutSeconds: 300 });
    expect(new Set(results.cases.map((c) => c.file))).toEqual(new Set(['__tests__/math.test.js', '__tests__/broken.test.js']));
  });

  it.each([['vitest' as Framework], ['node:test' as Framework], ['pytest' as Framework]])(
    'reads report.xml (JUnit) for %s',
    async (framework) => {
      serveOutputs({ 'out/report.xml': vitestReport, 'out/report.json': '{"not":"read"}', 'out/exit-code': '1' });
      const { runner } = runnerWith();
      const results = await runner.run({ dir: await tree(), framework, timeoutSeconds: 300 });
      const parsed = parseJUnitXml(vitestReport);
      expect(results).toMatchObject({
        status: 'completed',
        reason: null,
        totals: parsed.totals,
        cases: parsed.cases,
        exit_code: 1,
        timed_out: false,
      });
      expect(s3.commandCalls(GetObjectCommand).map((call) => call.args[0].input.Key!.split('/').slice(2).join('/'))).toEqual([
        'out/output.log',
        'out/exit-code',
        'out/report.xml',
        'out/source-dir',
      ]);
    },
  );

  it('answers failed, timed out, when `timeout` killed the run (exit code 124); the report is not read', async () => {
    serveOutputs({ 'out/report.json': jestReport, 'out/exit-code': '124\n', 'out/output.log': 'killed' });
    const { runner } = runnerWith();
    const results = await runner.run({ dir: await tree(), framework: 'jest', timeoutSeconds: 30 });
    expect(results).toEqual({
      status: 'failed',
      reason: 'timed out after 30 s',
      totals: { passed: 0, failed: 0, skipped: 0, errored: 0 },
      cases: [],
      duration_ms: expect.any(Number),
      log_excerpt: 'killed',
      exit_code: 124,
      timed_out: true,
    });
    expect(s3.commandCalls(GetObjectCommand).map((call) => call.args[0].input.Key!.split('/').pop())).toEqual(['output.log', 'exit-code']);
  });

  it('answers failed, timed out, when the build itself timed out (no outputs at all)', async () => {
    serveOutputs({});
    codebuild.on(BatchGetBuildsCommand).resolves({ builds: [{ id: `${projectName}:b-1`, buildStatus: 'TIMED_OUT' }] });
    const { runner } = runnerWith();
    const results = await runner.run({ dir: await tree(), framework: 'pytest', timeoutSeconds: 900 });
    expect(results).toMatchObject({
      status: 'failed',
      reason: 'timed out after 900 s',
      timed_out: true,
      exit_code: null,
      log_excerpt: '',
      cases: [],
    });
  });

  it('answers failed with the reason when the framework wrote no report', async () => {
    serveOutputs({ 'out/exit-code': '127\n', 'out/output.log': 'npx: command not found' });
    codebuild.on(BatchGetBuildsCommand).resolves({ builds: [{ id: `${projectName}:b-1`, buildStatus: 'FAILED' }] });
    const { runner } = runnerWith();
    const results = await runner.run({ dir: await tree(), framework: 'vitest', timeoutSeconds: 300 });
    expect(results).toEqual({
      status: 'failed',
      reason: 'the test framework wrote no report (build FAILED)',
      totals: { passed: 0, failed: 0, skipped: 0, errored: 0 },
      cases: [],
      duration_ms: expect.any(Number),
      log_excerpt: 'npx: command not found',
      exit_code: 127,
      timed_out: false,
    });
  });

  it('throws when the report cannot be read for another reason than its absence, or is not a report', async () => {
    s3.on(GetObjectCommand).rejects(
      new S3ServiceException({ name: 'AccessDenied', $fault: 'client', message: 'Access Denied', $metadata: {} }),
    );
    const { runner } = runnerWith();
    await expect(runner.run({ dir: await tree(), framework: 'jest', timeoutSeconds: 300 })).rejects.toThrow('Access Denied');

    s3.reset();
    s3.on(PutObjectCommand).resolves({});
    serveOutputs({ 'out/report.json': 'not json', 'out/exit-code': '0' });
    codebuild.on(BatchGetBuildsCommand).resolves({ builds: [{ id: `${projectName}:b-1`, buildStatus: 'SUCCEEDED' }] });
    await expect(runner.run({ dir: await tree(), framework: 'jest', timeoutSeconds: 300 })).rejects.toThrow('the jest report is not JSON');
  });

  it('throws when CodeBuild starts no build', async () => {
    codebuild.on(StartBuildCommand).resolves({});
    const { runner } = runnerWith();
    await expect(runner.run({ dir: await tree(), framework: 'jest', timeoutSeconds: 300 })).rejects.toThrow('CodeBuild started no build');
    expect(codebuild.commandCalls(BatchGetBuildsCommand)).toHaveLength(0);
  });

  it('gives every run its own prefix', async () => {
    serveOutputs({ 'out/report.json': jestReport });
    const { runner } = runnerWith();
    await runner.run({ dir: await tree(), framework: 'jest', timeoutSeconds: 300 });
    await runner.run({ dir: await tree(), framework: 'jest', timeoutSeconds: 300 });
    const keys = s3.commandCalls(PutObjectCommand).map((call) => call.args[0].input.Key);
    expect(new Set(keys).size).toBe(2);
  });
});
