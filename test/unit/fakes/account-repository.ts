import type { Account, AccountRepository } from '../../../functions/core/credentials/credential';
import { conflict } from '../../../functions/core/errors';

/** In-memory AccountRepository: one account per e-mail, listed in creation order. */
export const inMemoryAccountRepository = (): AccountRepository & { all(): Account[] } => {
  const accounts = new Map<string, Account>();
  return {
    async create(account) {
      if ([...accounts.values()].some((a) => a.email === account.email)) {
        throw conflict(`An account with the e-mail ${account.email} already exists.`);
      }
      accounts.set(account.id, { ...account });
    },
    async get(id) {
      const account = accounts.get(id);
      return account && { ...account };
    },
    async list(limit) {
      return [...accounts.values()].slice(0, limit).map((a) => ({ ...a }));
    },
    all: () => [...accounts.values()],
  };
};
