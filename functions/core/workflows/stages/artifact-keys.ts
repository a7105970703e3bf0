import type { WorkflowRef } from '../workflow';

/** Where each stage's products live in the artifact store, per account, mode and workflow. */
const base = (ref: WorkflowRef) => `workflows/${ref.account_id}/${ref.mode}/${ref.id}`;

export const artifactKeys = {
  context: (ref: WorkflowRef) => `${base(ref)}/context.json`,
  plan: (ref: WorkflowRef) => `${base(ref)}/plan.json`,
  changes: (ref: WorkflowRef) => `${base(ref)}/changes.json`,
  patch: (ref: WorkflowRef) => `${base(ref)}/change.patch`,
  verification: (ref: WorkflowRef) => `${base(ref)}/verification.json`,
  provenance: (ref: WorkflowRef) => `${base(ref)}/provenance.dsse.json`,
  bundle: (ref: WorkflowRef) => `${base(ref)}/bundle.tar.gz`,
  iteration: (ref: WorkflowRef, round: number) => `${base(ref)}/iterations/${round}/changes.json`,
};
