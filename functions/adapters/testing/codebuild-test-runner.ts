import { randomUUID } from 'node:crypto';
import { BatchGetBuildsCommand, type Build, type CodeBuildClient, StartBuildCommand, StopBuildCommand } from '@aws-sdk/client-codebuild';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { parseJestJson, parseJUnitXml } from './reports';
import type { RunResults, TestRunner } from '../../core/testing/results';
import { zipTree } from './zip-tree';

export interface CodeBuildTestRunnerOptions {
  codebuild: CodeBuildClient;
  s3: S3Client;
  projectName: string;
  bucket: string;
  kmsKeyId?: string;
  sleep?: (ms: number) => Promise<void>;
  pollIntervalMs?: number;
  /** How long the calling function may wait for the build (it must answer before its own timeout). */
  maxWaitMs?: number;
  now?: () => number;
}

const done = new Set(['SUCCEEDED', 'FAILED', 'FAULT', 'TIMED_OUT', 'STOPPED']);

const readText = async (s3: S3Client, bucket: string, key: string): Promise<string | null> => {
  try {
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return (await object.Body?.transformToString('utf8')) ?? null;
  } catch (error) {
    if (error instanceof Error && (error.name === 'NoSuchKey' || error.name === 'NotFound')) return null;
    throw error;
  }
};

/**
 * AWS isolation for untrusted test code: the tree goes to S3 as a zip and runs in the stack's
 * CodeBuild project (its buildspec runs the framework with its machine reporter), whose role may
 * only read that source and write that report: it can reach nothing of the service. The report
 * is read back and parsed like the local runner's.
 */
export const codeBuildTestRunner = (options: CodeBuildTestRunnerOptions): TestRunner => {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return {
    async run({ dir, framework, timeoutSeconds, files }) {
      const prefix = `tests/${randomUUID()}`;
      await options.s3.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: `${prefix}/source.zip`,
          Body: await zipTree(dir),
          ...(options.kmsKeyId ? { ServerSideEncryption: 'aws:kms', SSEKMSKeyId: options.kmsKeyId } : { ServerSideEncryption: 'AES256' }),
        }),
      );
      const started = Date.now();
      const build = await options.codebuild.send(
        new StartBuildCommand({
          projectName: options.projectName,
          sourceTypeOverride: 'S3',
          sourceLocationOverride: `${options.bucket}/${prefix}/source.zip`,
          artifactsOverride: { type: 'S3', location: options.bucket, path: prefix, name: 'out', packaging: 'NONE', namespaceType: 'NONE' },
          // CodeBuild counts whole minutes; the run's own limit is enforced by `timeout` in the buildspec.
          timeoutInMinutesOverride: Math.max(5, Math.ceil(timeoutSeconds / 60) + 5),
          environmentVariablesOverride: [
            { name: 'FRAMEWORK', value: framework, type: 'PLAINTEXT' },
            // One path per line: the buildspec reads them into an array, never through the shell's word splitting.
            { name: 'TEST_FILES', value: (files ?? []).join('\n'), type: 'PLAINTEXT' },
            { name: 'TEST_TIMEOUT_SECONDS', value: String(timeoutSeconds), type: 'PLAINTEXT' },
          ],
        }),
      );
      const id = build.build?.id;
      if (!id) throw new Error('CodeBuild started no build');
      const now = options.now ?? Date.now;
      const deadline = now() + (options.maxWaitMs ?? 13 * 60_000);
      let finished: Build | undefined;
      while (!finished) {
        if (now() > deadline) {
          // Nobody reads its results any more: stopped, so it bills no longer (its logs stay).
          await options.codebuild.send(new StopBuildCommand({ id }));
          return {
            status: 'failed',
            reason: `CodeBuild build ${id} did not finish while the tests function could wait, and was stopped; see its logs`,
            totals: { passed: 0, failed: 0, skipped: 0, errored: 0 },
            duration_ms: now() - started,
            cases: [],
            log_excerpt: '',
            exit_code: null,
            timed_out: true,
          };
        }
        await sleep(options.pollIntervalMs ?? 5_000);
        const [current] = (await options.codebuild.send(new BatchGetBuildsCommand({ ids: [id] }))).builds ?? [];
        if (current?.buildStatus && done.has(current.buildStatus)) finished = current;
      }
      const duration = Date.now() - started;
      const log = (await readText(options.s3, options.bucket, `${prefix}/out/output.log`)) ?? '';
      const exit = Number((await readText(options.s3, options.bucket, `${prefix}/out/exit-code`))?.trim());
      // `timeout` exits 124, or 137 when it had to SIGKILL after its grace period.
      const timedOut = exit === 124 || exit === 137 || finished.buildStatus === 'TIMED_OUT';
      const base = {
        duration_ms: duration,
        log_excerpt: log.slice(-4096),
        exit_code: Number.isFinite(exit) ? exit : null,
        timed_out: timedOut,
      };
      if (timedOut)
        return {
          ...base,
          status: 'failed',
          reason: `timed out after ${timeoutSeconds} s`,
          totals: { passed: 0, failed: 0, skipped: 0, errored: 0 },
          cases: [],
        };
      const report =
        framework === 'jest'
          ? await readText(options.s3, options.bucket, `${prefix}/out/report.json`)
          : await readText(options.s3, options.bucket, `${prefix}/out/report.xml`);
      if (!report) {
        return {
          ...base,
          status: 'failed',
          reason: `the test framework wrote no report (build ${finished.buildStatus})`,
          totals: { passed: 0, failed: 0, skipped: 0, errored: 0 },
          cases: [],
        };
      }
      // Paths in the report are under the build's source directory, which the buildspec records.
      const rootDir = (await readText(options.s3, options.bucket, `${prefix}/out/source-dir`))?.trim() || undefined;
      const parsed = framework === 'jest' ? parseJestJson(report, { rootDir }) : parseJUnitXml(report, { rootDir });
      const results: RunResults = { ...base, status: 'completed', reason: null, totals: parsed.totals, cases: parsed.cases };
      return results;
    },
  };
};
