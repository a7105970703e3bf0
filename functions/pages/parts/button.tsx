import type { ComponentChildren } from 'preact';

/** A button: it submits its form unless `type` says otherwise; `primary` unless a variant is given. */
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
