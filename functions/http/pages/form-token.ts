import { isId } from '../../core/ids';
import { isSecretTokenShaped } from '../../core/secret-token';
import type { Mode } from '../../core/tenancy';

/** The account and mode a page acted for when it was rendered: what its forms were shown for. */
export interface FormContext {
  accountId: string;
  mode: Mode;
}

/**
 * What the forms of an action must have been shown for: the dashboard's account and mode; the
 * account alone (the OAuth consent, whose grants are live whatever the switch); or nothing (the
 * account chooser and the mode switch, which name what they switch to).
 */
export type FormBinding = 'account_and_mode' | 'account' | 'none';

/**
 * The value of a form's CSRF field. A page that acts for an account binds the account and mode it
 * shows into it, `<account id>.<mode>.<CSRF token>` (as the session cookie names its ids), so that
 * a form cannot act in another account or mode than the one it was shown for, whatever another tab
 * switched to since. A page outside an account (sign-in, set password) carries the token alone.
 * Only the token is secret; the ids say what the form was shown for.
 */
export const formToken = (csrfToken: string, shownFor?: FormContext): string =>
  shownFor ? `${shownFor.accountId}.${shownFor.mode}.${csrfToken}` : csrfToken;

export interface SentFormToken {
  csrfToken: string;
  /** Absent for a form outside an account, or one of a page rendered before forms were bound. */
  shownFor?: FormContext;
}

/** A form's CSRF field as sent; undefined when it is no token of this service's shape. */
export const parseFormToken = (value: string): SentFormToken | undefined => {
  const parts = value.split('.');
  if (parts.length === 1) return isSecretTokenShaped(value) ? { csrfToken: value } : undefined;
  if (parts.length !== 3) return undefined;
  const [accountId, mode, csrfToken] = parts as [string, string, string];
  if (!isId('account', accountId) || (mode !== 'live' && mode !== 'test') || !isSecretTokenShaped(csrfToken)) return undefined;
  return { csrfToken, shownFor: { accountId, mode } };
};

/** Whether a form shown for `shownFor` would act elsewhere than it was shown for, acting for `now`. */
export const actsElsewhere = (binding: FormBinding, shownFor: FormContext | undefined, now: FormContext): boolean => {
  if (binding === 'none') return false;
  if (shownFor?.accountId !== now.accountId) return true;
  return binding === 'account_and_mode' && shownFor.mode !== now.mode;
};
