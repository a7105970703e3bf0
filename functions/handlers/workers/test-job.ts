import * as v from 'valibot';
import { systemClock } from '../../core/clock';
import type { TestJobDeps } from '../../core/testing/test-jobs';
import { runGeneration, runTestRun } from '../../core/testing/test-jobs';
import { providerFor } from '../../adapters/ai/registry';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoProjectRepository } from '../../adapters/dynamodb/project-repository';
import { dynamoTestRepository } from '../../adapters/dynamodb/testing-repository';
import { repositoryAccessFromEnvironment } from '../../adapters/repository/repository-runtime';
import { testRunnerFromEnvironment } from '../../adapters/testing/test-runner-runtime';
import { scratchFolders } from '../../adapters/workspace/working-tree';
import { fileSourceInspector } from '../../engines/testing/source-inspector';
import { tracedTable } from '../../observability/tracer';

const table = tracedTable(tableFromEnvironment());

const deps: TestJobDeps = {
  tests: dynamoTestRepository(table),
  projects: dynamoProjectRepository(table),
  clock: systemClock,
  repository: repositoryAccessFromEnvironment(),
  scratch: scratchFolders('tests-'),
  aiProvider: async (name) => providerFor(name),
  inspector: fileSourceInspector,
  runner: testRunnerFromEnvironment(),
};

const job = v.object({
  action: v.picklist(['generate', 'run']),
  ref: v.object({ account_id: v.string(), mode: v.picklist(['live', 'test']), id: v.string() }),
});

/** Invoked asynchronously (locally: in process) by the generate and run routes. */
export const handler = async (event: unknown): Promise<void> => {
  const { action, ref } = v.parse(job, event);
  if (action === 'generate') await runGeneration(deps, ref);
  else await runTestRun(deps, ref);
};
