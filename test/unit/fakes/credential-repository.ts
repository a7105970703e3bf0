import type { Credential, CredentialRepository } from '../../../functions/core/credentials/credential';

/**
 * In-memory CredentialRepository keyed by hash, as the table is; an account's credentials are
 * listed in id order (the index's sort key; ids sort by creation time). Returns copies, so a caller
 * cannot change what is stored except through the port. `calls` counts the lookups and the
 * recorded uses, so a test can tell whether the repository was asked at all.
 */
export const inMemoryCredentialRepository = (): CredentialRepository & {
  stored(): Credential[];
  calls: { findByHash: number; touchLastUsed: number };
} => {
  const byHash = new Map<string, Credential>();
  // As the table's adapter: a record stored before creators were recorded reads with none (null).
  const out = (found: Credential): Credential => ({ ...found, created_by_user_id: found.created_by_user_id ?? null });
  const calls = { findByHash: 0, touchLastUsed: 0 };
  const findById = async (id: string) => {
    const found = [...byHash.values()].find((c) => c.id === id);
    return found && out(found);
  };
  return {
    async findByHash(hash) {
      calls.findByHash += 1;
      const found = byHash.get(hash);
      return found && out(found);
    },
    findById,
    async create(credential) {
      if (byHash.has(credential.hash)) throw new Error('a credential with this hash exists');
      byHash.set(credential.hash, { ...credential });
    },
    async listByAccount(accountId) {
      return [...byHash.values()]
        .filter((c) => c.account_id === accountId)
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map(out);
    },
    async revoke(id, at) {
      const found = [...byHash.values()].find((c) => c.id === id);
      if (!found) return undefined;
      found.revoked_at ??= at;
      return out(found);
    },
    async touchLastUsed(hash, at, unlessAfter) {
      calls.touchLastUsed += 1;
      const found = byHash.get(hash);
      // The port: a no-op when last_used_at is already at or after `unlessAfter`.
      if (!found || (found.last_used_at !== null && found.last_used_at >= unlessAfter)) return;
      found.last_used_at = at;
    },
    async roll(replacement, oldId, oldExpiresAt) {
      const old = [...byHash.values()].find((c) => c.id === oldId);
      if (!old || old.revoked_at !== null || byHash.has(replacement.hash)) return undefined;
      old.expires_at = oldExpiresAt;
      byHash.set(replacement.hash, { ...replacement });
      return out(old);
    },
    calls,
    stored: () => [...byHash.values()].map(out),
  };
};
