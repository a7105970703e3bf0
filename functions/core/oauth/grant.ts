import type { AuditRecord } from '../audit/audit';
import type { Credential } from '../credentials/credential';
import type { Scope } from '../credentials/scopes';
import type { Membership } from '../users/user';
import type { OAuthClient } from './client';

/**
 * One authorization of an application by a person for an account: the code it started with, and
 * every access and refresh token descended from that code. Revoking the grant kills them all.
 */
export interface Grant {
  id: string;
  account_id: string;
  client_id: string;
  user_id: string;
  scopes: Scope[];
  created_at: string;
  /** No token of the grant lives past this (one year). */
  expires_at: string;
  revoked_at: string | null;
  revoked_reason: GrantRevocationReason | null;
  last_used_at: string | null;
}

export type GrantRevocationReason =
  | 'revoked_by_client'
  | 'revoked_by_user'
  | 'authorization_code_reused'
  | 'refresh_token_reused'
  /** The granting person was removed from the account. */
  | 'member_removed';

/** Single-use, bound to its client, redirect URI and PKCE challenge; ten minutes at most. */
export interface AuthorizationCode {
  hash: string;
  grant_id: string;
  client_id: string;
  account_id: string;
  user_id: string;
  redirect_uri: string;
  /** Whether the authorization request named it (then the token request must repeat it). */
  redirect_uri_included: boolean;
  scopes: Scope[];
  code_challenge: string | null;
  code_challenge_method: 'S256' | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** Rotated on every use: the token used is marked, and a second use revokes the grant. */
export interface RefreshToken {
  hash: string;
  grant_id: string;
  client_id: string;
  account_id: string;
  user_id: string;
  /** The grant's scopes: a narrower access token does not narrow the refresh token (RFC 6749 6). */
  scopes: Scope[];
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** The scopes a person already let an application have for an account: asking again for no more skips the page. */
export interface Consent {
  account_id: string;
  user_id: string;
  client_id: string;
  scopes: Scope[];
  updated_at: string;
}

/** A new access token (a credential of type `oauth`) and refresh token, stored together. */
export interface IssuedTokens {
  access: Credential;
  refresh: RefreshToken;
}

/** What decides, on every API request, whether an OAuth access token still works. */
export interface GrantStanding {
  grant: Grant | undefined;
  membership: Membership | undefined;
  client: OAuthClient | undefined;
}

export type IssueOutcome = 'issued' | 'used' | 'grant_revoked';

export interface OAuthGrantStore {
  /** The grant, its code, the remembered consent and the audit record, in one transaction. */
  createGrant(grant: Grant, code: AuthorizationCode, consent: Consent, audit: AuditRecord): Promise<void>;
  getGrant(id: string): Promise<Grant | undefined>;
  findCode(hash: string): Promise<AuthorizationCode | undefined>;
  findRefreshToken(hash: string): Promise<RefreshToken | undefined>;
  getConsent(accountId: string, userId: string, clientId: string): Promise<Consent | undefined>;
  /** Marks the code used and stores the tokens, in one transaction, only while the code is unused and the grant live. */
  exchangeCode(codeHash: string, tokens: IssuedTokens, now: string): Promise<IssueOutcome>;
  /** Marks the code used without issuing anything (its exchange failed a check). */
  spendCode(codeHash: string, now: string): Promise<void>;
  /** Marks the refresh token used and stores its successors, only while it is unused and the grant live. */
  rotateRefreshToken(refreshHash: string, tokens: IssuedTokens, now: string): Promise<IssueOutcome>;
  /** Revokes the grant with its audit record; false when it was revoked already (the first reason stays). */
  revokeGrant(grantId: string, reason: GrantRevocationReason, at: string, audit: AuditRecord): Promise<boolean>;
  /** Revokes one access token with its audit record. */
  revokeAccessToken(hash: string, at: string, audit: AuditRecord): Promise<void>;
  /** The grant, the granting user's membership and the application, in one read. */
  standing(origin: { grantId: string; accountId: string; userId: string; clientId: string }): Promise<GrantStanding>;
  /** A person's membership of an account, read the same way (a personal access token's owner). */
  membership(origin: { accountId: string; userId: string }): Promise<Membership | undefined>;
  /** Records a use; a no-op when `last_used_at` is already at or after `unlessAfter`. */
  touchLastUsed(grantId: string, at: string, unlessAfter: string): Promise<void>;
  grantsOfAccount(accountId: string): Promise<Grant[]>;
}
