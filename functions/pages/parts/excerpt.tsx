/**
 * A short text shown as written (a log, a failure message, a response body): it scrolls past a few
 * lines, so it takes the keyboard's focus too, and a screen reader hears what it is.
 */
export const Excerpt = (props: { label: string; children: string }) => (
  <pre className="excerpt" aria-label={props.label} tabIndex={0}>
    {props.children}
  </pre>
);
