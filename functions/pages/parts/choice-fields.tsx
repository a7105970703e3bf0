export interface Option {
  value: string;
  label: string;
  /** Said after the label (aria-describedby), so the label stays the value's own name. */
  description?: string;
}

export const SelectField = (props: { label: string; name: string; options: Option[]; value?: string; hint?: string }) => {
  const id = `field-${props.name}`;
  return (
    <div className="field">
      <label for={id}>{props.label}</label>
      <select id={id} name={props.name} aria-describedby={props.hint ? `${id}-hint` : undefined}>
        {props.options.map((option) => (
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
    </div>
  );
};

/** Checkboxes under a legend; each labelled with its value (`read:projects`), as tests and screen readers find them. */
export const CheckboxGroup = (props: {
  legend: string;
  name: string;
  options: Option[];
  checked?: readonly string[];
  hint?: string;
  columns?: boolean;
}) => (
  <fieldset className={props.columns ? 'field checkbox-group checkbox-group--columns' : 'field checkbox-group'}>
    <legend>{props.legend}</legend>
    {props.hint && <div className="field__hint">{props.hint}</div>}
    <div className="checkbox-group__options">
      {props.options.map((option) => {
        const id = `field-${props.name}-${option.value.replace(/[^a-z0-9]/gi, '-')}`;
        return (
          <div className="checkbox" key={option.value}>
            <input
              type="checkbox"
              id={id}
              name={props.name}
              value={option.value}
              checked={props.checked?.includes(option.value)}
              aria-describedby={option.description ? `${id}-description` : undefined}
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
