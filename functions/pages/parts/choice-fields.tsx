export interface Option {
  value: string;
  label: string;
  /** Said after the label (aria-describedby), so the label stays the value's own name. */
  description?: string;
}

/**
 * A labelled select, with its hint and its error (the select names both, `aria-describedby`). A
 * value that is none of the options (a refused one) is kept as an option of its own, selected, so
 * what was given shows beside its error until it is changed.
 */
export const SelectField = (props: { label: string; name: string; options: Option[]; value?: string; hint?: string; error?: string }) => {
  const id = `field-${props.name}`;
  const described = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const given = props.value ?? '';
  const options =
    given !== '' && !props.options.some((option) => option.value === given)
      ? [...props.options, { value: given, label: given }]
      : props.options;
  return (
    <div className={props.error ? 'field field--invalid' : 'field'}>
      <label for={id}>{props.label}</label>
      <select id={id} name={props.name} aria-invalid={props.error ? 'true' : undefined} aria-describedby={described || undefined}>
        {options.map((option) => (
          <option key={option.value} value={option.value} selected={option.value === props.value}>
            {option.label}
          </option>
        ))}
      </select>
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

/**
 * Checkboxes under a legend; each labelled with its value (`read:projects`), as tests and screen
 * readers find them. With `error` (none chosen, say), it is said under the legend, and each box is
 * marked invalid and described by it, as a single field is.
 */
export const CheckboxGroup = (props: {
  legend: string;
  name: string;
  options: Option[];
  checked?: readonly string[];
  hint?: string;
  error?: string;
  columns?: boolean;
}) => {
  const errorId = `field-${props.name}-error`;
  const classes = ['field', 'checkbox-group', props.columns ? 'checkbox-group--columns' : '', props.error ? 'field--invalid' : ''];
  return (
    <fieldset className={classes.filter(Boolean).join(' ')}>
      <legend>{props.legend}</legend>
      {props.hint && <div className="field__hint">{props.hint}</div>}
      {props.error && (
        <div className="field__error" id={errorId}>
          {props.error}
        </div>
      )}
      <div className="checkbox-group__options">
        {props.options.map((option) => {
          const id = `field-${props.name}-${option.value.replace(/[^a-z0-9]/gi, '-')}`;
          const described = [props.error ? errorId : '', option.description ? `${id}-description` : ''].filter(Boolean).join(' ');
          return (
            <div className="checkbox" key={option.value}>
              <input
                type="checkbox"
                id={id}
                name={props.name}
                value={option.value}
                checked={props.checked?.includes(option.value)}
                aria-invalid={props.error ? 'true' : undefined}
                aria-describedby={described || undefined}
              />
              <label for={id}>{option.label}</label>
              {option.description && (
                <span className="checkbox__description muted" id={`${id}-description`}>
                  {option.description}
                </span>
              )}
            </div>
          );
        })}
      </div>
    </fieldset>
  );
};
