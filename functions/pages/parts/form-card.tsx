import type { ComponentChildren } from 'preact';
import { ErrorSummary } from './alert';
import { Button } from './button';
import { Card } from './card';
import { PostForm } from './post-form';

/**
 * A card holding one state-changing form: its heading, what was wrong with the last try (listed
 * above the form), the fields and the button that sends them.
 */
export const FormCard = (props: {
  title: string;
  /** The form's accessible name, when it needs more words than the heading ("Edit the project"). */
  label?: string;
  /** An id for the heading, for links to the form. */
  headingId?: string;
  action: string;
  csrfToken: string;
  errors: string[] | undefined;
  /** The button's words ("Create", "Save changes"). */
  submit: string;
  /** Said between the heading and the form: what happens, who may. */
  intro?: ComponentChildren;
  /** The form makes something shown once (a key, a secret): `PostForm`'s `once`. */
  once?: boolean;
  children: ComponentChildren;
}) => (
  <Card>
    <h2 id={props.headingId}>{props.title}</h2>
    {props.intro}
    <ErrorSummary messages={props.errors ?? []} />
    <PostForm action={props.action} csrfToken={props.csrfToken} label={props.label ?? props.title} once={props.once}>
      {props.children}
      <div className="actions">
        <Button>{props.submit}</Button>
      </div>
    </PostForm>
  </Card>
);
