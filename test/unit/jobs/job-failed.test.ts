import { recordFailedJob } from '../../../functions/core/jobs/job-failed';
import type { Review, ReviewRepository } from '../../../functions/core/reviews/review';
import type { Finding, FindingRepository } from '../../../functions/core/security/finding';
import type { Scan, ScanRepository } from '../../../functions/core/security/scan';
import type { TestRepository, TestRun, TestSuite } from '../../../functions/core/testing/test-records';
import type { PendingEvent } from '../../../functions/core/workflows/workflow';
import { controlledClock } from '../fakes/clock';

const ref = { account_id: 'acct_01JD2Q7A0B1C2D3E4F5G6H7J8K', mode: 'test' as const, id: 'x' };
const at = '2026-11-21T10:00:00.000Z';

/** One record of each kind, stored by id, with the revision check the real repositories make. */
const store = () => {
  const records = new Map<string, { revision: number }>();
  const events: PendingEvent[] = [];
  const save = async <T extends { id: string; revision: number }>(previous: T, next: T, saved: PendingEvent[] = []) => {
    if (records.get(previous.id)?.revision !== previous.revision) return false;
    records.set(next.id, structuredClone(next));
    events.push(...saved);
    return true;
  };
  const get = async <T>(id: string) => structuredClone(records.get(id)) as T | undefined;
  const scans = {
    get: (_t: unknown, id: string) => get<Scan>(id),
    save: (_t: unknown, p: Scan, n: Scan, e: PendingEvent[]) => save(p, n, e),
  } as unknown as ScanRepository;
  const findings = {
    get: (_t: unknown, id: string) => get<Finding>(id),
    save: (_t: unknown, p: Finding, n: Finding, e: PendingEvent[]) => save(p, n, e),
  } as unknown as FindingRepository;
  const tests = {
    getSuite: (_t: unknown, id: string) => get<TestSuite>(id),
    getRun: (_t: unknown, id: string) => get<TestRun>(id),
    saveSuite: (_t: unknown, p: TestSuite, n: TestSuite, e: PendingEvent[]) => save(p, n, e),
    saveRun: (_t: unknown, p: TestRun, n: TestRun, e: PendingEvent[]) => save(p, n, e),
  } as unknown as TestRepository;
  const reviews = {
    get: (_t: unknown, id: string) => get<Review>(id),
    save: (_t: unknown, p: Review, n: Review, e: PendingEvent[]) => save(p, n, e),
    // No comment stored: the failure counts none.
    allComments: async () => [],
  } as unknown as ReviewRepository;
  return { records, events, deps: { scans, findings, tests, reviews, clock: controlledClock() } };
};

describe('a job whose invocations all failed', () => {
  it('fails a scan still running, with its reason and the scan.completed event', async () => {
    const { records, events, deps } = store();
    records.set('scan_1', { id: 'scan_1', status: 'running', errors: [], revision: 3, created_at: at } as unknown as Scan);
    await recordFailedJob(deps, { action: 'scan', ref: { ...ref, id: 'scan_1' } }, 'it failed after its retries (Runtime.ExitError)');
    expect(records.get('scan_1')).toMatchObject({
      status: 'failed',
      errors: ['The scan stopped: it failed after its retries (Runtime.ExitError).'],
      revision: 4,
    });
    expect(events.map((event) => event.type)).toEqual(['security.scan.completed']);
  });

  it('puts a finding being remediated back to open with the reason and its remediation.failed event, and leaves a resolved one alone', async () => {
    const { records, events, deps } = store();
    records.set('fnd_1', {
      id: 'fnd_1',
      status: 'remediating',
      remediation: { status: 'in_progress', error: null },
      revision: 2,
    } as unknown as Finding);
    // A scan resolved this one while its remediation ran: that end was told by security.finding.resolved.
    records.set('fnd_2', { id: 'fnd_2', status: 'resolved', remediation: { status: 'failed' }, revision: 4 } as unknown as Finding);
    await recordFailedJob(deps, { action: 'remediate', ref: { ...ref, id: 'fnd_1' } }, 'it waited too long to run');
    await recordFailedJob(deps, { action: 'remediate', ref: { ...ref, id: 'fnd_2' } }, 'timeout');
    expect(records.get('fnd_1')).toMatchObject({
      status: 'open',
      remediation: { status: 'failed', error: 'The remediate stopped: it waited too long to run.' },
    });
    expect(records.get('fnd_2')).toMatchObject({ status: 'resolved', revision: 4 });
    expect(events).toEqual([
      {
        type: 'security.finding.remediation.failed',
        data: expect.objectContaining({
          id: 'fnd_1',
          status: 'open',
          remediation: expect.objectContaining({ status: 'failed', error: 'The remediate stopped: it waited too long to run.' }),
        }),
      },
    ]);
  });

  it('fails a test suite or run still under way, with its test.generation.completed or test.run.completed, and leaves finished ones alone', async () => {
    const { records, events, deps } = store();
    records.set('test_1', { id: 'test_1', status: 'running', files: [], revision: 2 } as unknown as TestSuite);
    records.set('run_1', { id: 'run_1', status: 'queued', revision: 1 } as unknown as TestRun);
    records.set('run_2', { id: 'run_2', status: 'completed', revision: 5 } as unknown as TestRun);
    await recordFailedJob(deps, { action: 'generate', ref: { ...ref, id: 'test_1' } }, 'timeout');
    await recordFailedJob(deps, { action: 'run', ref: { ...ref, id: 'run_1' } }, 'timeout');
    await recordFailedJob(deps, { action: 'run', ref: { ...ref, id: 'run_2' } }, 'timeout');
    expect(records.get('test_1')).toMatchObject({ status: 'failed', error: 'The generate stopped: timeout.' });
    expect(records.get('run_1')).toMatchObject({ status: 'failed', error: 'The run stopped: timeout.' });
    expect(records.get('run_2')).toMatchObject({ status: 'completed', revision: 5 });
    expect(events).toEqual([
      {
        type: 'test.generation.completed',
        data: expect.objectContaining({ id: 'test_1', status: 'failed', files: [], error: 'The generate stopped: timeout.' }),
      },
      { type: 'test.run.completed', data: expect.objectContaining({ id: 'run_1', status: 'failed', error: 'The run stopped: timeout.' }) },
    ]);
  });

  it('fails a review still under way with review.completed saying failed, and leaves a completed one alone', async () => {
    const { records, events, deps } = store();
    records.set('rev_1', {
      id: 'rev_1',
      project_id: 'proj_1',
      workflow_id: null,
      status: 'running',
      verdict: null,
      counts: null,
      merge_base: null,
      head_commit: null,
      error: null,
      started_at: at,
      revision: 2,
    } as unknown as Review);
    records.set('rev_2', { id: 'rev_2', status: 'completed', revision: 4 } as unknown as Review);
    await recordFailedJob(deps, { action: 'review', ref: { ...ref, id: 'rev_1' } }, 'it failed after its retries (ReviewAlreadyRunning)');
    await recordFailedJob(deps, { action: 'review', ref: { ...ref, id: 'rev_2' } }, 'timeout');
    expect(records.get('rev_1')).toMatchObject({
      status: 'failed',
      error: 'The review stopped: it failed after its retries (ReviewAlreadyRunning).',
      revision: 3,
    });
    expect(records.get('rev_2')).toMatchObject({ status: 'completed', revision: 4 });
    expect(events).toEqual([
      {
        type: 'review.completed',
        data: expect.objectContaining({ review_id: 'rev_1', project_id: 'proj_1', status: 'failed', verdict: null, comments: 0 }),
      },
    ]);
  });
});
