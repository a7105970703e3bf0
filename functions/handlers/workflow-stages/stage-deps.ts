import { systemClock } from '../../core/clock';
import type { Signer } from '../../core/provenance/signer';
import type { StageDeps } from '../../core/workflows/stages/stage-deps';
import { providerFor } from '../../adapters/ai/registry';
import { artifactStoreFromEnvironment } from '../../adapters/artifacts/artifact-runtime';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoProjectRepository } from '../../adapters/dynamodb/project-repository';
import { dynamoWorkflowRepository } from '../../adapters/dynamodb/workflow-repository';
import { repositoryAccessFromEnvironment } from '../../adapters/repository/repository-runtime';
import { signerFromEnvironment } from '../../adapters/signing/signer-runtime';
import { scratchFolders } from '../../adapters/workspace/working-tree';
import { tracedTable } from '../../observability/tracer';

/** Everything a stage function reaches, from its environment; the signer is made on first use. */
/** `extra`: what only some stages use (verify's scanners, package's auto-deployer), so the other bundles stay lean. */
export const stageDeps = (extra: Partial<StageDeps> = {}): StageDeps => {
  const table = tracedTable(tableFromEnvironment());
  let signer: Promise<Signer> | undefined;
  return {
    workflows: dynamoWorkflowRepository(table),
    projects: dynamoProjectRepository(table),
    clock: systemClock,
    aiProvider: async (name) => providerFor(name),
    repository: repositoryAccessFromEnvironment(),
    scratch: scratchFolders('workflow-'),
    artifacts: artifactStoreFromEnvironment(),
    signer: () =>
      (signer ??= signerFromEnvironment().catch((error: unknown) => {
        signer = undefined;
        throw error;
      })),
    ...extra,
  };
};
