export interface FieldProps {
  /** The accessible name: tests and screen readers find the field by it. */
  label: string;
  name: string;
  /** When two forms of a page have a field of the same name: `field-<name>` otherwise. */
  id?: string;
  type?: 'text' | 'email' | 'password' | 'url' | 'datetime-local';
  value?: string;
  autoComplete?: string;
  inputMode?: 'numeric' | 'text' | 'email';
  hint?: string;
  error?: string;
  required?: boolean;
  autoFocus?: boolean;
  maxLength?: number;
  /** For `datetime-local`: `1` takes seconds too. */
  step?: string;
}

/** A labelled text input, with its hint and its error (the input names both, `aria-describedby`). */
export const TextField = (props: FieldProps) => {
  const id = props.id ?? `field-${props.name}`;
  const described = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={props.error ? 'field field--invalid' : 'field'}>
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        // preact types each input type apart; these share every attribute used here.
        type={(props.type ?? 'text') as 'text'}
        value={props.value}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        required={props.required}
        autoFocus={props.autoFocus}
        maxLength={props.maxLength}
        step={props.step}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={described || undefined}
      />
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
