import type { CredentialType } from './credentials/key-format';
import type { Scope } from './credentials/scopes';

/** Live and test data never see each other (DESIGN.md, as in Stripe). */
export type Mode = 'live' | 'test';

/** Whose data a request reads and writes: every stored object belongs to one account and mode. */
export interface Tenant {
  accountId: string;
  mode: Mode;
}

/** The caller behind a request, as the credential resolver established it. */
export interface Principal extends Tenant {
  credentialId: string;
  credentialType: CredentialType;
  /** The credential's redacted form (`sk_live_…a1b2`), safe to log and show; never its value. */
  credentialHint?: string;
  scopes: Scope[];
}
