import type { Account, AccountRepository } from '../../../functions/core/credentials/credential';
import { conflict } from '../../../functions/core/errors';

const byId = (a: Account, b: Account): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * In-memory AccountRepository with the DynamoDB adapter's rules: one account per e-mail (a second
 * is a conflict), a second create of an id fails, and accounts are listed in id order (the
 * index's sort key; ids sort by creation time).
 */
export const inMemoryAccountRepository = (): AccountRepository & { all(): Account[] } => {
  const accounts = new Map<string, Account>();
  return {
    async create(account) {
      if ([...accounts.values()].some((a) => a.email === account.email)) {
        throw conflict(`An account with the e-mail ${account.email} already exists.`);
      }
      if (accounts.has(account.id)) throw new Error(`account ${account.id} exists`);
      accounts.set(account.id, { ...account });
    },
    async get(id) {
      const account = accounts.get(id);
      return account && { ...account };
    },
    async list(limit) {
      return [...accounts.values()]
        .sort(byId)
        .slice(0, limit)
        .map((a) => ({ ...a }));
    },
    all: () => [...accounts.values()],
  };
};
