import type { AiProvider } from '../../ai/provider';
import type { Clock } from '../../clock';
import type { Project } from '../../projects/project';
import type { Signer } from '../../provenance/signer';
import type { Tenant } from '../../tenancy';
import type { ArtifactStore } from '../../workspace/artifact-store';
import type { Scratch } from '../../workspace/working-tree';
import type { ChangeSet } from '../stage-data';
import type { WorkflowRepository } from '../workflow';
import type { AutoDeployer } from './auto-deploy';
import type { ImageBuilder } from './image-build';
import type { Scanner } from '../../security/scanner';

export interface CheckoutRequest {
  url: string;
  branch?: string;
  /** Check out this commit of the branch rather than its tip. */
  commit?: string;
  dir: string;
}

export interface PushRequest {
  url: string;
  baseCommit: string;
  branch: string;
  changes: ChangeSet;
  message: string;
  author: { name: string; email: string };
}

/** Where the code lives: fetch a branch into a folder; publish a change as a branch. */
export interface RepositoryAccess {
  checkout(request: CheckoutRequest): Promise<{ commit: string; branch: string }>;
  /** Present only when push credentials are configured. */
  pushBranch?: (request: PushRequest) => Promise<{ branch: string; commit: string }>;
}

export interface StageDeps {
  workflows: WorkflowRepository;
  projects: { get(tenant: Tenant, id: string): Promise<Project | undefined> };
  clock: Clock;
  aiProvider(name: string): Promise<AiProvider>;
  repository: RepositoryAccess;
  scratch: Scratch;
  artifacts: ArtifactStore;
  signer(): Promise<Signer>;
  /** The security scanners verify runs on the changed tree (findings in changed files fail it). */
  securityScanners?: Scanner[];
  /** Present where deployments are available. */
  autoDeployer?: AutoDeployer;
  /** Present where container images can be built: package builds one when the tree has a Dockerfile. */
  imageBuilder?: ImageBuilder;
}
