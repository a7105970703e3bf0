import { chmod, mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { BatchGetBuildsCommand, StopBuildCommand, type Build, CodeBuildClient, StartBuildCommand } from '@aws-sdk/client-codebuild';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { unzipSync } from 'fflate';
import {
  codeBuildImageBuilder,
  imageBuilderFromEnvironment,
  imageSourceKey,
  zipTree,
} from '../../../functions/adapters/images/codebuild-image-builder';
import type { WorkflowRef } from '../../../functions/core/workflows/workflow';
import { controlledClock } from '../fakes/clock';
import { tempDirs, writeTree } from '../workspace/temp-dir';

const s3 = mockClient(S3Client);
const codebuild = mockClient(CodeBuildClient);
const dirs = tempDirs();
afterAll(() => dirs.removeAll());
beforeEach(() => {
  s3.reset();
  codebuild.reset();
  s3.on(PutObjectCommand).resolves({});
  codebuild.on(StartBuildCommand).resolves({ build: { id: 'images:b-1', currentPhase: 'SUBMITTED', buildStatus: 'IN_PROGRESS' } });
});

const ref: WorkflowRef = { account_id: 'acc_1', mode: 'test', id: 'wf_01ABC' };
const repositoryUri = '123456789012.dkr.ecr.eu-west-1.amazonaws.com/images';

/** A builder on the mocked clients, with a clock that moves only when it sleeps. */
const builderWith = (overrides: { maxWaitMs?: number } = {}) => {
  const clock = controlledClock();
  const sleeps: number[] = [];
  const builder = codeBuildImageBuilder({
    s3: new S3Client({}),
    codebuild: new CodeBuildClient({}),
    bucket: 'artifact-bucket',
    kmsKeyId: 'arn:aws:kms:eu-west-1:123456789012:key/k',
    project: 'images',
    repositoryUri,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.advance(ms);
    },
    now: clock.now,
    ...overrides,
  });
  return { builder, sleeps, clock };
};

const tree = async (): Promise<string> => {
  const dir = await dirs.make('image-tree-');
  await writeTree(dir, {
    Dockerfile: 'FROM public.ecr.aws/docker/library/node:22\nCOPY . /app\n',
    'src/index.js': 'console.log(1)\n',
    '.git/HEAD': 'ref: refs/heads/main\n',
    '.git/config': '[core]\n',
    'vendor/lib/.git': 'gitdir: ../../.git/modules/lib\n',
    'vendor/lib/lib.js': 'export {}\n',
  });
  return dir;
};

const building = (phase: string): { builds: Build[] } => ({
  builds: [{ id: 'images:b-1', buildStatus: 'IN_PROGRESS', currentPhase: phase }],
});

describe('zipTree', () => {
  it('holds every file of the tree and nothing of .git', async () => {
    const files = unzipSync(await zipTree(await tree()));
    expect(Object.keys(files).sort()).toEqual(['Dockerfile', 'src/index.js', 'vendor/lib/lib.js']);
    expect(Buffer.from(files['src/index.js']!).toString()).toBe('console.log(1)\n');
  });

  it('stores a symbolic link as a link: what it points to is never read', async () => {
    const dir = await dirs.make('image-tree-');
    await writeTree(dir, { Dockerfile: 'FROM scratch\n' });
    await symlink('/etc/hostname', join(dir, 'outside'));
    const files = unzipSync(await zipTree(dir));
    expect(Buffer.from(files.outside!).toString()).toBe('/etc/hostname');
  });

  it('keeps the Unix mode, so scripts stay executable, and leaves empty folders out', async () => {
    const dir = await dirs.make('image-tree-');
    await writeTree(dir, { 'run.sh': '#!/bin/sh\n' });
    await chmod(join(dir, 'run.sh'), 0o755);
    await mkdir(join(dir, 'empty'));
    const zip = await zipTree(dir);
    expect(Object.keys(unzipSync(zip))).toEqual(['run.sh']);
    // Central directory entry: made by Unix (3), external attributes = mode << 16.
    const central = Buffer.from(zip).indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    expect(zip[central + 5]).toBe(3);
    expect(Buffer.from(zip).readUInt32LE(central + 38) >>> 16).toBe(0o100755);
  });
});

describe('codeBuildImageBuilder', () => {
  it('puts the zipped tree under images/<account>/<mode>/<workflow>/ with SSE-KMS', async () => {
    codebuild.on(BatchGetBuildsCommand).resolves({ builds: [{ id: 'images:b-1', buildStatus: 'SUCCEEDED', currentPhase: 'COMPLETED' }] });
    await builderWith().builder.build({ ref, workflowId: ref.id, tree: await tree(), log: async () => {} });

    const input = s3.commandCalls(PutObjectCommand)[0]!.args[0].input;
    expect(imageSourceKey(ref)).toBe('images/acc_1/test/wf_01ABC/source.zip');
    expect(input).toMatchObject({
      Bucket: 'artifact-bucket',
      Key: 'images/acc_1/test/wf_01ABC/source.zip',
      ContentType: 'application/zip',
      ServerSideEncryption: 'aws:kms',
      SSEKMSKeyId: 'arn:aws:kms:eu-west-1:123456789012:key/k',
    });
    const files = unzipSync(input.Body as Uint8Array);
    expect(Object.keys(files).sort()).toEqual(['Dockerfile', 'src/index.js', 'vendor/lib/lib.js']);
    expect(Object.keys(files).filter((name) => name.split('/').includes('.git'))).toEqual([]);
    expect(input.ContentLength).toBe((input.Body as Uint8Array).length);
  });

  it('starts the project on that zip with the workflow id as IMAGE_TAG', async () => {
    codebuild.on(BatchGetBuildsCommand).resolves({ builds: [{ id: 'images:b-1', buildStatus: 'SUCCEEDED' }] });
    await builderWith().builder.build({ ref, workflowId: ref.id, tree: await tree(), log: async () => {} });
    expect(codebuild.commandCalls(StartBuildCommand).map((call) => call.args[0].input)).toEqual([
      {
        projectName: 'images',
        sourceTypeOverride: 'S3',
        sourceLocationOverride: 'artifact-bucket/images/acc_1/test/wf_01ABC/source.zip',
        environmentVariablesOverride: [{ name: 'IMAGE_TAG', value: 'wf_01ABC', type: 'PLAINTEXT' }],
      },
    ]);
  });

  it('polls every 10 s until the build succeeds, then names <repository>:<workflow id>', async () => {
    codebuild
      .on(BatchGetBuildsCommand)
      .resolvesOnce(building('PROVISIONING'))
      .resolvesOnce(building('BUILD'))
      .resolvesOnce(building('BUILD'))
      .resolves({ builds: [{ id: 'images:b-1', buildStatus: 'SUCCEEDED', currentPhase: 'COMPLETED' }] });
    const messages: string[] = [];
    const { builder, sleeps } = builderWith();

    const outcome = await builder.build({ ref, workflowId: ref.id, tree: await tree(), log: async (m) => void messages.push(m) });

    expect(outcome).toEqual({ image: `${repositoryUri}:wf_01ABC` });
    expect(sleeps).toEqual([10_000, 10_000, 10_000, 10_000]);
    expect(codebuild.commandCalls(BatchGetBuildsCommand).map((call) => call.args[0].input)).toEqual(Array(4).fill({ ids: ['images:b-1'] }));
    expect(messages[0]).toMatch(/^Image build images:b-1 started/);
    // Each phase is told once.
    expect(messages.slice(1)).toEqual(['Image build images:b-1: PROVISIONING', 'Image build images:b-1: BUILD']);
  });

  it('answers a failed build with its status, the phase that failed and what CodeBuild said', async () => {
    codebuild
      .on(BatchGetBuildsCommand)
      .resolvesOnce(building('BUILD'))
      .resolves({
        builds: [
          {
            id: 'images:b-1',
            buildStatus: 'FAILED',
            currentPhase: 'COMPLETED',
            phases: [
              { phaseType: 'DOWNLOAD_SOURCE', phaseStatus: 'SUCCEEDED', contexts: [{ statusCode: '', message: '' }] },
              { phaseType: 'PRE_BUILD', phaseStatus: 'SUCCEEDED', contexts: [{ statusCode: '', message: '' }] },
              {
                phaseType: 'BUILD',
                phaseStatus: 'FAILED',
                contexts: [
                  { statusCode: 'COMMAND_EXECUTION_ERROR', message: 'Error while executing command: docker build. Reason: exit status 1' },
                ],
              },
              { phaseType: 'FINALIZING', phaseStatus: 'SUCCEEDED', contexts: [] },
              { phaseType: 'COMPLETED' },
            ],
          },
        ],
      });
    const outcome = await builderWith().builder.build({ ref, workflowId: ref.id, tree: await tree(), log: async () => {} });
    expect(outcome).toEqual({
      failed: 'image build FAILED at phase BUILD: Error while executing command: docker build. Reason: exit status 1',
    });
  });

  it.each(['FAULT', 'TIMED_OUT', 'STOPPED'])('answers a %s build as failed', async (status) => {
    codebuild
      .on(BatchGetBuildsCommand)
      .resolves({ builds: [{ id: 'images:b-1', buildStatus: status as Build['buildStatus'], currentPhase: 'PROVISIONING', phases: [] }] });
    const outcome = await builderWith().builder.build({ ref, workflowId: ref.id, tree: await tree(), log: async () => {} });
    expect(outcome).toEqual({ failed: `image build ${status} at phase PROVISIONING: no message` });
  });

  it('gives up after 12 minutes, before the function would be stopped', async () => {
    codebuild.on(BatchGetBuildsCommand).resolves(building('BUILD'));
    const { builder, clock } = builderWith();
    const start = clock.now();

    const outcome = await builder.build({ ref, workflowId: ref.id, tree: await tree(), log: async () => {} });

    expect(outcome).toEqual({ failed: 'image build still running after 12 minutes, stopped (build images:b-1)' });
    expect(clock.now() - start).toBe(12 * 60_000);
    expect(codebuild.commandCalls(BatchGetBuildsCommand)).toHaveLength(72);
    // Nothing waits for it any more: stopped, so it bills no longer.
    expect(codebuild.commandCalls(StopBuildCommand).map((call) => call.args[0].input)).toEqual([{ id: 'images:b-1' }]);
  });

  it('fails when CodeBuild starts no build', async () => {
    codebuild.on(StartBuildCommand).resolves({});
    await expect(builderWith().builder.build({ ref, workflowId: ref.id, tree: await tree(), log: async () => {} })).rejects.toThrow(
      'CodeBuild started no build of images',
    );
  });
});

describe('imageBuilderFromEnvironment', () => {
  it('is undefined unless IMAGE_BUILD_PROJECT is set', () => {
    expect(imageBuilderFromEnvironment({})).toBeUndefined();
    expect(imageBuilderFromEnvironment({ ARTIFACT_BUCKET: 'b', IMAGE_REPOSITORY_URI: repositoryUri })).toBeUndefined();
  });

  it('builds with the configured project, bucket and repository', () => {
    expect(
      imageBuilderFromEnvironment({ IMAGE_BUILD_PROJECT: 'images', ARTIFACT_BUCKET: 'b', IMAGE_REPOSITORY_URI: repositoryUri }),
    ).toEqual({ build: expect.any(Function) });
  });

  it('refuses a project without the bucket or the repository', () => {
    expect(() => imageBuilderFromEnvironment({ IMAGE_BUILD_PROJECT: 'images', ARTIFACT_BUCKET: 'b' })).toThrow('IMAGE_REPOSITORY_URI');
  });
});
