import { sha256Hex } from '../../../functions/core/workspace/artifact-store';
import type { Finding, FindingRepository } from '../../../functions/core/security/finding';
import { getRemediationPatch } from '../../../functions/core/security/remediation-patch';
import type { Tenant } from '../../../functions/core/tenancy';
import { apiErrorOf } from '../fakes/api-error';

const expectApiError = async (promise: Promise<unknown>, code: string) => expect((await apiErrorOf(promise)).code).toBe(code);

const id = 'fnd_01JD2QB2G6H8J0K2M4N6P8R0S2';
const owner: Tenant = { accountId: 'acct_owner', mode: 'test' };
const key = `findings/acct_owner/test/${id}/remediation.patch`;
const diff = Buffer.from('diff --git a/a.js b/a.js\n-export const a = eval(x);\n+export const a = 1;\n');

const remediated = (body: Buffer): Finding =>
  ({
    id,
    status: 'resolved',
    remediation: {
      status: 'completed',
      method: 'ai',
      requested_at: '2026-11-24T10:00:00.000Z',
      completed_at: '2026-11-24T10:00:05.000Z',
      error: null,
      patch: { location: `/data/artifacts/${key}`, sha256: sha256Hex(body), size: body.length },
      pushed_branch: null,
    },
  }) as unknown as Finding;

/** Findings of one tenant, and an artifact store holding `stored` under their keys. */
const depsOf = (finding: Finding, stored: Record<string, Buffer>) => {
  const asked: string[] = [];
  return {
    asked,
    deps: {
      findings: {
        get: async (tenant: Tenant, wanted: string) =>
          tenant.accountId === owner.accountId && tenant.mode === owner.mode && wanted === finding.id ? finding : undefined,
      } as unknown as FindingRepository,
      artifacts: {
        get: async (wanted: string) => {
          asked.push(wanted);
          return stored[wanted] ?? null;
        },
      },
    },
  };
};

describe('getRemediationPatch', () => {
  it("answers the patch stored under the tenant's key, with its SHA-256", async () => {
    const { deps, asked } = depsOf(remediated(diff), { [key]: diff });
    const patch = await getRemediationPatch(owner, id, deps);
    expect(patch).toEqual({ findingId: id, body: diff, sha256: sha256Hex(diff) });
    expect(asked).toEqual([key]);
  });

  it('is 404 for another account or mode, without reading the store', async () => {
    const { deps, asked } = depsOf(remediated(diff), { [key]: diff });
    await expectApiError(getRemediationPatch({ accountId: 'acct_other', mode: 'test' }, id, deps), 'not_found');
    await expectApiError(getRemediationPatch({ ...owner, mode: 'live' }, id, deps), 'not_found');
    expect(asked).toEqual([]);
  });

  it('is 404 while the finding has no verified patch, and when the store has lost it', async () => {
    const inProgress = { ...remediated(diff), status: 'remediating', remediation: { ...remediated(diff).remediation!, patch: null } };
    await expectApiError(getRemediationPatch(owner, id, depsOf(inProgress as Finding, { [key]: diff }).deps), 'not_found');
    await expectApiError(getRemediationPatch(owner, id, depsOf(remediated(diff), {}).deps), 'not_found');
  });

  it('is 409 when the stored patch is not the one the finding recorded (a new remediation replaced it)', async () => {
    const replaced = Buffer.from(`${diff.toString()}+export const b = 2;\n`);
    await expectApiError(getRemediationPatch(owner, id, depsOf(remediated(diff), { [key]: replaced }).deps), 'conflict');
  });
});
