import type { AiProvider } from '../ai/provider';
import type { Clock } from '../clock';
import type { Project } from '../projects/project';
import type { Tenant } from '../tenancy';
import type { FileChange } from '../workflows/stage-data';
import type { RepositoryAccess } from '../workflows/stages/stage-deps';
import type { ArtifactStore } from '../workspace/artifact-store';
import type { Scratch } from '../workspace/working-tree';
import type { FindingRepository } from './finding';
import type { ScanRepository } from './scan';
import type { Scanner, ScanType } from './scanner';

/** What the security function reaches: the records, the repository, the scanners, an AI provider. */
export interface SecurityJobDeps {
  scans: ScanRepository;
  findings: FindingRepository;
  projects: { get(tenant: Tenant, id: string): Promise<Project | undefined> };
  clock: Clock;
  repository: RepositoryAccess;
  scratch: Scratch;
  scanner(type: ScanType): Scanner;
  /** The provider that proposes patches for secrets and sast findings. */
  aiProvider(): Promise<AiProvider>;
  artifacts: ArtifactStore;
  /** The mechanical upgrade of a vulnerable dependency: full new contents of the files, or null. */
  /** The text with every secret the secrets scanner finds in it replaced by `***` (patches are kept and served). */
  maskSecrets(text: string): Promise<string>;
  planUpgrade(root: string, details: Record<string, unknown>): Promise<FileChange[] | null>;
}
