import type { InputHTMLAttributes, ReactNode } from 'react';

type InputAttrs = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'children'>;

/**
 * A labelled input: the label names it (htmlFor, so a screen reader and a click on the words reach it), an optional
 * hint describes it (aria-describedby), and `onChange` gets the text. Other input attributes pass through
 * (required, inputMode, min, max…).
 */
export function Field(
  props: {
    id: string;
    label: ReactNode;
    value: string;
    onChange: (value: string) => void;
    hint?: ReactNode;
  } & InputAttrs,
) {
  const { id, label, value, onChange, hint, ...input } = props;
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * A labelled choice among fixed values (an enum of the API's), each shown in words by `label`; `blank` adds a first
 * choice with the value "" (such as "All" for a filter).
 */
export function SelectField<V extends string>(props: {
  id: string;
  label: ReactNode;
  value: V;
  onChange: (value: V) => void;
  options: readonly V[];
  optionLabel: (value: V) => string;
  blank?: string;
  disabled?: boolean;
}) {
  return (
    <div>
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value as V)}
      >
        {props.blank !== undefined && <option value="">{props.blank}</option>}
        {props.options.map((v) => (
          <option key={v} value={v}>
            {props.optionLabel(v)}
          </option>
        ))}
      </select>
    </div>
  );
}
