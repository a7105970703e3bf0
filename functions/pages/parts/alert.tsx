import type { ComponentChildren } from 'preact';

/** A message in a box: an error is announced at once (`role="alert"`), the others politely (`role="status"`). */
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
