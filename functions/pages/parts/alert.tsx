import type { ComponentChildren } from 'preact';

/** A message in a box: an error is announced at once (`role="alert"`), the others politely (`role="status"`). */
export const Alert = (props: {
  kind: 'error' | 'info' | 'success';
  title?: string;
  /** A form's error summary: the script focuses it when no field of the form is marked invalid. */
  summary?: boolean;
  /**
   * What an action did (a notice after it: every success alert; a test event's result): the script
   * focuses it, since on a phone the page opens at the navigation, far above it.
   */
  outcome?: boolean;
  children?: ComponentChildren;
}) => (
  <div
    className={`alert alert--${props.kind}`}
    role={props.kind === 'error' ? 'alert' : 'status'}
    {...(props.summary ? { 'data-error-summary': '', tabIndex: -1 } : {})}
    {...((props.outcome ?? props.kind === 'success') ? { 'data-outcome': '', tabIndex: -1 } : {})}
  >
    {props.title && <strong>{props.title}</strong>}
    {props.children}
  </div>
);

/** Problems with what was sent, listed above the form (and beside each field by the page). */
export const ErrorSummary = ({ messages }: { messages: string[] }) =>
  messages.length === 0 ? null : (
    <Alert kind="error" summary title={messages.length === 1 ? undefined : 'Please correct these:'}>
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
