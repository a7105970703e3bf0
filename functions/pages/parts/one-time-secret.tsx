import type { ComponentChildren } from 'preact';

/** A value shown this once (a key, a secret) with a copy button the script reveals. */
export const OneTimeSecret = (props: { id: string; label: string; value: string; children?: ComponentChildren }) => (
  // What the action made: the script focuses it (`data-outcome`), in view however far down the page.
  <div className="one-time-secret" role="region" aria-labelledby={`${props.id}-label`} data-outcome="" tabIndex={-1}>
    <h2 id={`${props.id}-label`}>{props.label}</h2>
    <p>
      <strong>Copy it now: it is shown this once.</strong> The service keeps only a hash of it.
    </p>
    <div className="secret-row">
      <code className="secret" id={props.id}>
        {props.value}
      </code>
      <button type="button" className="button button--secondary" data-copy={props.id} hidden>
        Copy
      </button>
    </div>
    {props.children}
  </div>
);
