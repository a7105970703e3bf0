import { createScan, type SecurityDeps } from '../../../functions/core/security/security-use-cases';
import type { Scan, ScanRepository } from '../../../functions/core/security/scan';
import type { PendingEvent } from '../../../functions/core/workflows/workflow';
import { controlledClock } from '../fakes/clock';

const tenant = { accountId: 'acct_01JD2Q7A0B1C2D3E4F5G6H7J8K', mode: 'test' as const };
const projectId = 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G';

/** Scans stored by id with the revision check the table makes, and the events written with them. */
const setup = (start: () => Promise<void>) => {
  const stored = new Map<string, Scan>();
  const events: PendingEvent[] = [];
  const scans = {
    create: async (_tenant: unknown, scan: Scan) => (stored.set(scan.id, structuredClone(scan)), true),
    save: async (_tenant: unknown, previous: Scan, next: Scan, written: PendingEvent[]) => {
      if (stored.get(previous.id)?.revision !== previous.revision) return false;
      stored.set(next.id, structuredClone(next));
      events.push(...written);
      return true;
    },
  } as unknown as ScanRepository;
  const deps = { scans, findings: {}, jobs: { start }, clock: controlledClock() } as unknown as SecurityDeps;
  return { deps, stored, events };
};

describe('creating a scan', () => {
  it('queues it and starts its job, with no event yet', async () => {
    const { deps, stored, events } = setup(async () => undefined);
    const scan = await createScan(tenant, { project_id: projectId, scan_types: ['secrets'] }, deps);
    expect(scan.status).toBe('queued');
    expect(stored.get(scan.id)).toEqual(scan);
    expect(events).toEqual([]);
  });

  it('fails one whose job cannot be started, with the security.scan.completed that announces every end', async () => {
    const { deps, stored, events } = setup(async () => {
      throw new Error('throttled');
    });
    const scan = await createScan(tenant, { project_id: projectId, scan_types: ['secrets'] }, deps);
    expect(scan).toMatchObject({ status: 'failed', errors: ['The scan could not be started; create it again.'], revision: 2 });
    expect(stored.get(scan.id)).toEqual(scan);
    expect(events).toEqual([
      {
        type: 'security.scan.completed',
        data: expect.objectContaining({ id: scan.id, status: 'failed', errors: scan.errors, completed_at: scan.completed_at }),
      },
    ]);
  });
});
