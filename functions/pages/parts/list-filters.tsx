import type { ComponentChildren } from 'preact';
import { Button } from './button';
import { Alert } from './alert';
import { SelectField } from './choice-fields';

/** What is wrong with each refused filter, by its parameter. */
type FilterErrors = Record<string, string>;

/**
 * The filters above a list: a GET form to the list's own address (so a filtered list can be linked
 * and bookmarked) with a field per filter, each labelled, and the button that applies them. With
 * `errors` (a filter refused), an alert above it says why nothing is listed; each field shows its own.
 */
export const FilterForm = (props: {
  action: string;
  label: string;
  submit?: string;
  errors?: FilterErrors;
  children: ComponentChildren;
}) => (
  <>
    <RefusedFilterAlert errors={props.errors} />
    <form method="get" action={props.action} className="filters-form" aria-label={props.label}>
      {props.children}
      <Button variant="secondary">{props.submit ?? 'Filter'}</Button>
    </form>
  </>
);

/** Said when a filter of the address was refused (400): nothing is listed until it is corrected. */
export const RefusedFilterAlert = ({ errors, fix = 'Correct the filter marked below.' }: { errors?: FilterErrors; fix?: string }) =>
  errors && Object.keys(errors).length > 0 ? (
    <Alert kind="error" title="Nothing is listed: a filter has a value it does not take.">
      <p>{fix}</p>
    </Alert>
  ) : null;

/** What a list says instead of its rows: that a filter was refused, or `none` when nothing matched. */
export const emptyList = (errors: FilterErrors | undefined, none: ComponentChildren): ComponentChildren =>
  errors && Object.keys(errors).length > 0 ? 'Nothing is listed until the filter is corrected.' : none;

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
  error?: string;
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
  error?: string;
}) => (
  <div className={props.error ? 'field field--invalid' : 'field'}>
    <label for={`field-${props.name}`}>{props.label}</label>
    <input
      id={`field-${props.name}`}
      name={props.name}
      // preact types each input type apart; a date and a text input share every attribute used here.
      type={props.type as 'text' | undefined}
      value={props.value ?? ''}
      placeholder={props.placeholder}
      maxLength={props.maxLength}
      aria-invalid={props.error ? 'true' : undefined}
      aria-describedby={props.error ? `field-${props.name}-error` : undefined}
    />
    {props.error && (
      <div className="field__error" id={`field-${props.name}-error`}>
        {props.error}
      </div>
    )}
  </div>
);

/** The "Project id" filter of the lists that belong to projects. */
export const ProjectIdFilter = ({ value }: { value: string | undefined }) => (
  <InputFilter label="Project id" name="project_id" value={value} placeholder="proj_…" />
);
