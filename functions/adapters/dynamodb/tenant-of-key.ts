import type { Tenant } from '../../core/tenancy';

/** `ACCOUNT#<id>#MODE#<mode>#…`: the tenant of an item, from its partition key. */
export const tenantOfKey = (pk: string): Tenant | undefined => {
  const [account, accountId, modeLabel, mode] = pk.split('#');
  return account === 'ACCOUNT' && modeLabel === 'MODE' && accountId && (mode === 'live' || mode === 'test')
    ? { accountId, mode }
    : undefined;
};
