import { randomBytes } from 'node:crypto';
import type { ComponentChildren } from 'preact';

/** The name of the hidden field that carries the CSRF token of every state-changing form. */
export const csrfFieldName = 'csrf_token';

export const CsrfField = ({ token }: { token: string }) => <input type="hidden" name={csrfFieldName} value={token} />;

/** The hidden field naming one rendering of a form that may take effect once (`once`). */
export const formIdFieldName = 'form_id';

/** 128 random bits, URL-safe: a form's id is not secret, only never the same twice. */
export const isFormId = (value: string): boolean => /^[A-Za-z0-9_-]{22}$/.test(value);

/**
 * A POST form with its CSRF token; every state-changing action is one. `confirm`: the question the
 * script asks before sending it (`ConfirmForm`). `once`: the form carries an id of its own, and the
 * action takes effect for the first sending of it only (a reload of the answer, or a second click,
 * sends it again): what makes a key or a secret, which is shown once.
 */
export const PostForm = (props: {
  action: string;
  csrfToken: string;
  className?: string;
  confirm?: string;
  label?: string;
  once?: boolean;
  children: ComponentChildren;
}) => (
  <form
    method="post"
    action={props.action}
    className={props.className}
    data-confirm={props.confirm}
    data-once={props.once ? '' : undefined}
    // The back button shows such a form again with a new id: the browser must not fill in what was
    // typed, or one more press makes a second key. Typed again, it is a second key asked for.
    autocomplete={props.once ? 'off' : undefined}
    aria-label={props.label}
  >
    <CsrfField token={props.csrfToken} />
    {props.once ? <input type="hidden" name={formIdFieldName} value={randomBytes(16).toString('base64url')} /> : null}
    {props.children}
  </form>
);
