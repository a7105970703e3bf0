import type { ComponentChildren } from 'preact';
import { Button } from './button';
import { SelectField } from './choice-fields';

/**
 * The filters above a list: a GET form to the list's own address (so a filtered list can be linked
 * and bookmarked) with a field per filter, each labelled, and the button that applies them.
 */
export const FilterForm = (props: { action: string; label: string; submit?: string; children: ComponentChildren }) => (
  <form method="get" action={props.action} className="filters-form" aria-label={props.label}>
    {props.children}
    <Button variant="secondary">{props.submit ?? 'Filter'}</Button>
  </form>
);

/** A filter that keeps one of `values`, or any (the empty value, first). */
export const ChoiceFilter = ({
  values,
  labelOf,
  ...field
}: {
  label: string;
  name: string;
  value: string | undefined;
  values: readonly string[];
  /** How a value is said, when not as it is (`in_progress` as "in progress"). */
  labelOf?: (value: string) => string;
}) => (
  <SelectField
    {...field}
    value={field.value ?? ''}
    options={[{ value: '', label: 'Any' }, ...values.map((value) => ({ value, label: labelOf?.(value) ?? value }))]}
  />
);

/** A filter typed in: text (a prefix, an id) or a date. */
export const InputFilter = (props: {
  label: string;
  name: string;
  value: string | undefined;
  type?: 'date';
  placeholder?: string;
  maxLength?: number;
}) => (
  <div className="field">
    <label for={`field-${props.name}`}>{props.label}</label>
    <input
      id={`field-${props.name}`}
      name={props.name}
      // preact types each input type apart; a date and a text input share every attribute used here.
      type={props.type as 'text' | undefined}
      value={props.value ?? ''}
      placeholder={props.placeholder}
      maxLength={props.maxLength}
    />
  </div>
);

/** The "Project id" filter of the lists that belong to projects. */
export const ProjectIdFilter = ({ value }: { value: string | undefined }) => (
  <InputFilter label="Project id" name="project_id" value={value} placeholder="proj_…" />
);
