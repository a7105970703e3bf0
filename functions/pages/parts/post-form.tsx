import type { ComponentChildren } from 'preact';

/** The name of the hidden field that carries the CSRF token of every state-changing form. */
export const csrfFieldName = 'csrf_token';

export const CsrfField = ({ token }: { token: string }) => <input type="hidden" name={csrfFieldName} value={token} />;

/**
 * A POST form with its CSRF token; every state-changing action is one. `confirm`: the question the
 * script asks before sending it (`ConfirmForm`).
 */
export const PostForm = (props: {
  action: string;
  csrfToken: string;
  className?: string;
  confirm?: string;
  label?: string;
  children: ComponentChildren;
}) => (
  <form method="post" action={props.action} className={props.className} data-confirm={props.confirm} aria-label={props.label}>
    <CsrfField token={props.csrfToken} />
    {props.children}
  </form>
);
