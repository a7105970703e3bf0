import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { BatchGetBuildsCommand, type Build, CodeBuildClient, StartBuildCommand, StopBuildCommand } from '@aws-sdk/client-codebuild';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { zipSync, type Zippable } from 'fflate';
import type { ImageBuilder } from '../../core/workflows/stages/image-build';
import type { WorkflowRef } from '../../core/workflows/workflow';

export interface CodeBuildImageBuilderOptions {
  s3: S3Client;
  codebuild: CodeBuildClient;
  /** The artifact bucket; the zipped tree goes under `images/`. */
  bucket: string;
  /** SSE-KMS with this key (the artifact key); SSE-S3 without it. */
  kmsKeyId?: string;
  /** Name of the CodeBuild project that builds and pushes the image. */
  project: string;
  /** The ECR repository the project pushes to: `<account>.dkr.ecr.<region>.amazonaws.com/<name>`. */
  repositoryUri: string;
  /** Between two looks at the build; 10 s unless told. */
  pollIntervalMs?: number;
  /** How long to wait for the build: 12 minutes unless told, below the package function's 15. */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** Where the zipped tree of a workflow goes in the artifact bucket. */
export const imageSourceKey = (ref: WorkflowRef): string => `images/${ref.account_id}/${ref.mode}/${ref.id}/source.zip`;

const defaultPollIntervalMs = 10_000;
const defaultMaxWaitMs = 12 * 60_000;
const finalStatuses = new Set(['SUCCEEDED', 'FAILED', 'FAULT', 'TIMED_OUT', 'STOPPED']);

/** Unix file type and permission bits as ZIP external attributes (made by Unix). */
const unixAttributes = (mode: number) => ({ os: 3, attrs: (mode & 0xffff) * 0x10000 });

/**
 * Every file of the tree, `.git` folders (and a submodule's `.git` file) left out, with its Unix
 * mode so scripts stay executable. A symbolic link is stored as a link (its target as the body):
 * what it points to is never read, so nothing outside the tree gets into the archive.
 */
export const zipTree = async (root: string): Promise<Uint8Array> => {
  const files: Zippable = {};
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name === '.git') continue;
      const path = join(dir, entry.name);
      const name = `${prefix}${entry.name}`;
      const stats = await lstat(path);
      if (stats.isDirectory()) await walk(path, `${name}/`);
      else if (stats.isSymbolicLink())
        files[name] = [new TextEncoder().encode(await readlink(path)), { ...unixAttributes(stats.mode), level: 0 }];
      else if (stats.isFile()) files[name] = [new Uint8Array(await readFile(path)), unixAttributes(stats.mode)];
    }
  };
  await walk(root, '');
  return zipSync(files, { level: 6 });
};

/** The phase that ended the build, and what CodeBuild said about it. */
const failureOf = (build: Build): string => {
  const phases = build.phases ?? [];
  const failed = phases.findLast((phase) => phase.phaseStatus !== undefined && phase.phaseStatus !== 'SUCCEEDED');
  const phase = failed?.phaseType ?? build.currentPhase ?? 'unknown';
  const message = failed?.contexts?.map((context) => context.message).find((text) => text !== undefined && text.length > 0) ?? 'no message';
  return `image build ${build.buildStatus} at phase ${phase}: ${message}`;
};

/**
 * Container images through CodeBuild: the tree, zipped, goes to the artifact bucket; the project
 * builds it with docker and pushes `<repository URI>:<workflow id>` to ECR. The build is watched
 * until it ends or `maxWaitMs` passed (the package function must end first).
 */
export const codeBuildImageBuilder = (options: CodeBuildImageBuilderOptions): ImageBuilder => {
  const pollIntervalMs = options.pollIntervalMs ?? defaultPollIntervalMs;
  const maxWaitMs = options.maxWaitMs ?? defaultMaxWaitMs;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;

  return {
    async build({ ref, workflowId, tree, log }) {
      const key = imageSourceKey(ref);
      const body = await zipTree(tree);
      await options.s3.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: key,
          Body: body,
          ContentType: 'application/zip',
          ContentLength: body.length,
          ...(options.kmsKeyId ? { ServerSideEncryption: 'aws:kms', SSEKMSKeyId: options.kmsKeyId } : { ServerSideEncryption: 'AES256' }),
        }),
      );

      const started = await options.codebuild.send(
        new StartBuildCommand({
          projectName: options.project,
          sourceTypeOverride: 'S3',
          sourceLocationOverride: `${options.bucket}/${key}`,
          environmentVariablesOverride: [{ name: 'IMAGE_TAG', value: workflowId, type: 'PLAINTEXT' }],
        }),
      );
      const id = started.build?.id;
      if (!id) throw new Error(`CodeBuild started no build of ${options.project}`);
      await log(`Image build ${id} started (${body.length} bytes of source)`);

      const deadline = now() + maxWaitMs;
      let phase: string | undefined = started.build?.currentPhase;
      for (;;) {
        await sleep(pollIntervalMs);
        const build = (await options.codebuild.send(new BatchGetBuildsCommand({ ids: [id] }))).builds?.[0];
        if (build?.buildStatus === 'SUCCEEDED') return { image: `${options.repositoryUri}:${workflowId}` };
        if (build?.buildStatus && finalStatuses.has(build.buildStatus)) return { failed: failureOf(build) };
        if (build?.currentPhase && build.currentPhase !== phase) {
          phase = build.currentPhase;
          await log(`Image build ${id}: ${phase}`);
        }
        if (now() >= deadline) {
          // Nothing waits for its image any more: stopped, so it bills and pushes no longer.
          await options.codebuild.send(new StopBuildCommand({ id }));
          return { failed: `image build still running after ${Math.round(maxWaitMs / 60_000)} minutes, stopped (build ${id})` };
        }
      }
    },
  };
};

/** The CodeBuild image builder when the stack configured one (IMAGE_BUILD_PROJECT), else undefined. */
export const imageBuilderFromEnvironment = (env: Readonly<Record<string, string | undefined>> = process.env): ImageBuilder | undefined => {
  const project = env.IMAGE_BUILD_PROJECT;
  if (!project) return undefined;
  const bucket = env.ARTIFACT_BUCKET;
  const repositoryUri = env.IMAGE_REPOSITORY_URI;
  if (!bucket || !repositoryUri) throw new Error('IMAGE_BUILD_PROJECT needs ARTIFACT_BUCKET and IMAGE_REPOSITORY_URI');
  return codeBuildImageBuilder({
    s3: new S3Client({}),
    codebuild: new CodeBuildClient({}),
    bucket,
    ...(env.ARTIFACT_KMS_KEY_ID ? { kmsKeyId: env.ARTIFACT_KMS_KEY_ID } : {}),
    project,
    repositoryUri,
  });
};
