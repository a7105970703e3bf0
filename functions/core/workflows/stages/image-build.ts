import type { WorkflowRef } from '../workflow';

export interface ImageBuildRequest {
  ref: WorkflowRef;
  workflowId: string;
  /** A folder holding the packaged tree: the intake commit with the change set applied, a Dockerfile at its root. */
  tree: string;
  /** Progress for the workflow's log (build id, phases). */
  log: (message: string) => Promise<void>;
}

/** The image reference (`<repository URI>:<tag>`) when it was built and pushed, else why not. */
export type ImageBuildOutcome = { image: string } | { failed: string };

/**
 * Builds the container image of a packaged tree and pushes it to the service's registry (AWS:
 * CodeBuild into the stack's ECR repository). Absent where no image can be built (local runtime).
 */
export interface ImageBuilder {
  build(input: ImageBuildRequest): Promise<ImageBuildOutcome>;
}
