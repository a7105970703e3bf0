import * as v from 'valibot';
import { systemClock } from '../../core/clock';
import type { SecurityJobDeps } from '../../core/security/job-deps';
import { runRemediation } from '../../core/security/remediate';
import { runScan } from '../../core/security/run-scan';
import type { Scanner, ScanType } from '../../core/security/scanner';
import { configuredProviders, providerFor } from '../../adapters/ai/registry';
import { artifactStoreFromEnvironment } from '../../adapters/artifacts/artifact-runtime';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoProjectRepository } from '../../adapters/dynamodb/project-repository';
import { dynamoFindingRepository } from '../../adapters/dynamodb/finding-repository';
import { dynamoScanRepository } from '../../adapters/dynamodb/scan-repository';
import { repositoryAccessFromEnvironment } from '../../adapters/repository/repository-runtime';
import { advisorySourceFromEnvironment } from '../../adapters/security/osv/advisory-runtime';
import { scratchFolders } from '../../adapters/workspace/working-tree';
import { dependenciesScanner } from '../../engines/scanners/dependencies/dependencies-scanner';
import { planUpgrade } from '../../engines/scanners/dependencies/upgrade';
import { sastScanner } from '../../engines/scanners/sast/sast-scanner';
import { maskSecrets, secretsScanner } from '../../engines/scanners/secrets-scanner';
import { recordScanDuration } from '../../observability/metrics';
import { tracedTable } from '../../observability/tracer';

const table = tracedTable(tableFromEnvironment());
const scanners = new Map<ScanType, Scanner>();
const scannerFor = (type: ScanType): Scanner => {
  let scanner = scanners.get(type);
  if (!scanner) {
    scanner =
      type === 'secrets' ? secretsScanner() : type === 'sast' ? sastScanner() : dependenciesScanner(advisorySourceFromEnvironment());
    scanners.set(type, scanner);
  }
  return scanner;
};

const deps: SecurityJobDeps = {
  scans: dynamoScanRepository(table),
  findings: dynamoFindingRepository(table),
  projects: dynamoProjectRepository(table),
  clock: systemClock,
  repository: repositoryAccessFromEnvironment(),
  scratch: scratchFolders('scan-'),
  scanner: scannerFor,
  async aiProvider() {
    // The first provider the deployment offers (`local` in the local runtime).
    const [name] = configuredProviders();
    if (!name) throw new Error('no AI provider is configured for remediation');
    return providerFor(name);
  },
  artifacts: artifactStoreFromEnvironment(),
  maskSecrets: (text) => maskSecrets(text),
  planUpgrade,
};

const job = v.object({
  action: v.picklist(['scan', 'remediate']),
  ref: v.object({ account_id: v.string(), mode: v.picklist(['live', 'test']), id: v.string() }),
});

/** Invoked asynchronously (locally: in process) by the scan and remediate routes. */
export const handler = async (event: unknown): Promise<void> => {
  const { action, ref } = v.parse(job, event);
  const started = performance.now();
  if (action === 'scan') await runScan(deps, ref);
  else await runRemediation(deps, ref);
  recordScanDuration(action, performance.now() - started);
};
