import type { ComponentChildren } from 'preact';
import { PostForm } from './post-form';

/**
 * A state-changing form that is confirmed first: in a dialog by the script, else on a page of the
 * server's own (which answers any POST without `confirmed=yes` by asking).
 */
export const ConfirmForm = (props: {
  action: string;
  csrfToken: string;
  confirm: string;
  className?: string;
  label?: string;
  once?: boolean;
  children: ComponentChildren;
}) => <PostForm {...props} className={props.className ?? 'inline-form'} />;
