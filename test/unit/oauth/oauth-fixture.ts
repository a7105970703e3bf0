import { createHash, randomBytes } from 'node:crypto';
import { createAccount } from '../../../functions/core/credentials/manage-credentials';
import type { Scope } from '../../../functions/core/credentials/scopes';
import { checkAuthorizationRequest } from '../../../functions/core/oauth/authorization-request';
import { approveAuthorization } from '../../../functions/core/oauth/consent';
import { registerClient } from '../../../functions/core/oauth/manage-clients';
import { createUser } from '../../../functions/core/users/manage-users';
import { inMemoryPeople } from '../fakes/people';

export const issuer = 'https://auth.acme.test';
export const redirectUri = 'https://app.example.test/callback';
export const from = { ip: '198.51.100.7', userAgent: 'unit-test browser' };

export const pkcePair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** An account with an admin and a viewer, and a confidential and a public application of another account. */
export const oauthWorld = async () => {
  const people = inMemoryPeople();
  const account = await createAccount({ email: 'owner@acme.test' }, people);
  const vendor = await createAccount({ email: 'vendor@apps.test' }, people);
  const admin = (await createUser({ email: 'alice@acme.test', accountId: account.id, role: 'admin' }, people)).user;
  const viewer = (await createUser({ email: 'victor@acme.test', accountId: account.id, role: 'viewer' }, people)).user;
  const confidential = await registerClient({ accountId: vendor.id, name: 'CI Bot', redirectUris: [redirectUri] }, people);
  const publicClient = await registerClient(
    { accountId: vendor.id, name: 'Desktop App', redirectUris: ['http://127.0.0.1:8400/callback'], public: true },
    people,
  );

  /** What the consent page's Allow does, for a person of the account: the code from the redirect. */
  const authorize = async (
    options: { clientId?: string; scopes?: Scope[]; role?: 'admin' | 'viewer'; challenge?: string; redirect?: string } = {},
  ) => {
    const params = new URLSearchParams({
      client_id: options.clientId ?? confidential.id,
      redirect_uri: options.redirect ?? redirectUri,
      response_type: 'code',
      scope: (options.scopes ?? ['read:projects', 'write:projects']).join(' '),
      state: 'st4te',
    });
    if (options.challenge) {
      params.set('code_challenge', options.challenge);
      params.set('code_challenge_method', 'S256');
    }
    const check = await checkAuthorizationRequest(params, people);
    if (check.outcome !== 'valid') throw new Error(`authorization request refused: ${JSON.stringify(check)}`);
    const user = options.role === 'viewer' ? viewer : admin;
    const location = await approveAuthorization(
      { request: check.request, accountId: account.id, userId: user.id, role: options.role ?? 'admin', issuer, origin: from },
      people,
    );
    const url = new URL(location);
    return { code: url.searchParams.get('code'), url };
  };

  return { ...people, account, vendor, admin, viewer, confidential, publicClient, authorize };
};
