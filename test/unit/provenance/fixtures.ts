import { createHash } from 'node:crypto';
import { buildStatement, type InTotoStatement, type ProvenanceInput } from '../../../functions/core/provenance/statement';

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

export const provenanceInput = (overrides: Partial<ProvenanceInput> = {}): ProvenanceInput => ({
  workflowId: 'wf_01JABCDEF',
  repository: 'https://github.com/acme/shop',
  branch: 'main',
  commit: '0123456789abcdef0123456789abcdef01234567',
  promptSha256: digest('Add a health check endpoint'),
  aiProvider: 'local',
  artifacts: [
    { name: 'change.patch', sha256: digest('diff --git a/x b/x') },
    { name: 'changes.json', sha256: digest('{"files":[]}') },
  ],
  verification: { passed: true, reportSha256: digest('{"passed":true}') },
  startedOn: '2026-11-21T10:00:00.000Z',
  finishedOn: '2026-11-21T10:03:12.000Z',
  ...overrides,
});

export const sampleStatement = (overrides: Partial<ProvenanceInput> = {}): InTotoStatement => buildStatement(provenanceInput(overrides));

/** A statement whose DSSE PAE is longer than `bytes`: many artifacts. */
export const largeStatement = (bytes: number): InTotoStatement => {
  const count = Math.ceil(bytes / 90);
  return sampleStatement({
    artifacts: Array.from({ length: count }, (_, i) => ({ name: `file-${String(i).padStart(5, '0')}.txt`, sha256: digest(String(i)) })),
  });
};
