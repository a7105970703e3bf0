import { buildStatement } from '../../provenance/statement';
import { signEnvelope } from '../../provenance/dsse';
import type { RepositoryContext, VerificationReport } from '../stage-data';
import type { WorkflowRef } from '../workflow';
import { artifactKeys } from './artifact-keys';
import { runStage } from './run-stage';
import type { StageDeps } from './stage-deps';
import { putJson, readArtifact, readJson, sha256 } from './stage-helpers';

/** Sign a provenance statement over the inputs (commit, prompt digest), the diff and the report. */
export const runProve = (deps: StageDeps, ref: WorkflowRef) =>
  runStage(deps, ref, 'prove', async ({ workflow, log }) => {
    const context = await readJson<RepositoryContext>(deps, artifactKeys.context(ref));
    const changes = await readArtifact(deps, artifactKeys.changes(ref));
    const patch = await readArtifact(deps, artifactKeys.patch(ref));
    const reportBytes = await readArtifact(deps, artifactKeys.verification(ref));
    const report = JSON.parse(reportBytes.toString('utf8')) as VerificationReport;

    const statement = buildStatement({
      workflowId: workflow.id,
      repository: context.repository,
      branch: context.branch,
      commit: context.commit,
      promptSha256: sha256(workflow.prompt),
      aiProvider: workflow.config.ai_provider,
      artifacts: [
        { name: 'change.patch', sha256: sha256(patch) },
        { name: 'changes.json', sha256: sha256(changes) },
      ],
      verification: { passed: report.passed, reportSha256: sha256(reportBytes) },
      startedOn: workflow.started_at ?? workflow.created_at,
      finishedOn: new Date(deps.clock.now()).toISOString(),
    });
    const signer = await deps.signer();
    await log.info(`Signing the provenance statement with key ${signer.keyId}`);
    const envelope = await signEnvelope(statement, signer);
    const stored = await putJson(deps, artifactKeys.provenance(ref), envelope);
    await log.info(
      `Provenance: ${statement.subject.length} subjects, verification ${report.passed ? 'passed' : 'failed'}; envelope sha256 ${stored.sha256}`,
    );
    return { answer: {}, outputs: { provenance: { ...stored, key_id: signer.keyId, predicate_type: statement.predicateType } } };
  });
