import type { ComponentChildren } from 'preact';

/**
 * The building blocks of every page. Text reaches the HTML only through JSX, which escapes it:
 * there is no other way to put a value on a page. No inline style or script either (the CSP
 * forbids both): give elements classes and style them in assets/dashboard.css.
 */

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

export interface FieldProps {
  /** The accessible name: tests and screen readers find the field by it. */
  label: string;
  name: string;
  type?: 'text' | 'email' | 'password' | 'url';
  value?: string;
  autoComplete?: string;
  inputMode?: 'numeric' | 'text' | 'email';
  hint?: string;
  error?: string;
  required?: boolean;
  autoFocus?: boolean;
  maxLength?: number;
}

export const TextField = (props: FieldProps) => {
  const id = `field-${props.name}`;
  const described = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={props.error ? 'field field--invalid' : 'field'}>
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        // preact types each input type apart; these four share every attribute used here.
        type={(props.type ?? 'text') as 'text'}
        value={props.value}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        required={props.required}
        autoFocus={props.autoFocus}
        maxLength={props.maxLength}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={described || undefined}
      />
      {props.hint && (
        <div className="field__hint" id={`${id}-hint`}>
          {props.hint}
        </div>
      )}
      {props.error && (
        <div className="field__error" id={`${id}-error`}>
          {props.error}
        </div>
      )}
    </div>
  );
};

export const Button = (props: {
  children: ComponentChildren;
  variant?: 'primary' | 'secondary' | 'danger' | 'link';
  name?: string;
  value?: string;
  type?: 'submit' | 'button';
}) => (
  <button
    type={props.type ?? 'submit'}
    name={props.name}
    value={props.value}
    className={props.variant && props.variant !== 'primary' ? `button button--${props.variant}` : 'button'}
  >
    {props.children}
  </button>
);

export const Alert = (props: { kind: 'error' | 'info' | 'success'; title?: string; children?: ComponentChildren }) => (
  <div className={`alert alert--${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
    {props.title && <strong>{props.title}</strong>}
    {props.children}
  </div>
);

/** Problems with what was sent, listed above the form (and beside each field by the page). */
export const ErrorSummary = ({ messages }: { messages: string[] }) =>
  messages.length === 0 ? null : (
    <Alert kind="error" title={messages.length === 1 ? undefined : 'Please correct these:'}>
      {messages.length === 1 ? (
        <p>{messages[0]}</p>
      ) : (
        <ul>
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </Alert>
  );

export const Card = ({ children }: { children: ComponentChildren }) => <section className="card">{children}</section>;
