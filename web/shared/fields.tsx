import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';

/** What Field and TextBox take besides their element's own attributes. */
interface TextProps {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  hint?: ReactNode;
}

type Own = 'id' | 'value' | 'onChange' | 'children';

/**
 * The element's side of it, spread last so it wins over the passed-through attributes: its id and text, the text out on
 * each change, and the hint (when there is one) describing it.
 */
function wired({ id, value, onChange, hint }: TextProps) {
  return {
    id,
    value,
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
    'aria-describedby': hint ? `${id}-hint` : undefined,
  };
}

/**
 * A labelled input: the label names it (htmlFor, so a screen reader and a click on the words reach it), an optional
 * hint describes it (aria-describedby), and `onChange` gets the text. Other input attributes pass through
 * (required, inputMode, min, max…).
 */
export function Field(props: TextProps & Omit<InputHTMLAttributes<HTMLInputElement>, Own>) {
  const { label, hint, ...input } = props;
  return (
    <div>
      <label htmlFor={props.id}>{label}</label>
      <input {...input} {...wired(props)} />
      {hint && (
        <p id={`${props.id}-hint`} className="hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * A labelled text box of several lines (a note, a statement, a message), wired as Field is; other attributes pass
 * through (required, maxLength, rows…). No wrapper: the label, the box and the hint flow in the form around them.
 */
export function TextBox(props: TextProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, Own>) {
  const { label, hint, ...box } = props;
  return (
    <>
      <label htmlFor={props.id}>{label}</label>
      <textarea {...box} {...wired(props)} />
      {hint && (
        <small id={`${props.id}-hint`} className="muted">
          {hint}
        </small>
      )}
    </>
  );
}

interface ChoiceProps<V extends string> {
  id: string;
  label: ReactNode;
  options: readonly V[];
  optionLabel: (value: V) => string;
  disabled?: boolean;
}

/** A labelled choice among fixed values (an enum of the API's), each shown in words by `optionLabel`. */
export function SelectField<V extends string>(
  props: ChoiceProps<V> & { value: NoInfer<V>; onChange: (value: V) => void },
) {
  return <Choice {...props} onChange={props.onChange as (value: string) => void} />;
}

/** A SelectField with a first choice `blank` (such as "All") whose value is "": a list's filter. */
export function FilterField<V extends string>(
  props: ChoiceProps<V> & { value: NoInfer<V> | ''; onChange: (value: V | '') => void; blank: string },
) {
  return <Choice {...props} onChange={props.onChange as (value: string) => void} />;
}

function Choice<V extends string>(
  props: ChoiceProps<V> & { value: string; onChange: (value: string) => void; blank?: string },
) {
  return (
    <div>
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
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

/** The list with `value` in it (once, at the end) or without it. */
export function toggled<V>(list: readonly V[], value: V, on: boolean): V[] {
  const others = list.filter((x) => x !== value);
  return on ? [...others, value] : others;
}

/** A row of checkboxes, one per value (permissions, skills, event names): the ticked ones in, the new list out. */
export function Checks<V extends string>(props: {
  options: readonly V[];
  checked: readonly V[];
  onChange: (next: V[]) => void;
  optionLabel: (value: V) => ReactNode;
}) {
  return (
    <div className="checks">
      {props.options.map((v) => (
        <label key={v} className="choice">
          <input
            type="checkbox"
            checked={props.checked.includes(v)}
            onChange={(e) => props.onChange(toggled(props.checked, v, e.target.checked))}
          />
          {props.optionLabel(v)}
        </label>
      ))}
    </div>
  );
}

/** One choice of a few, as radio buttons in a fieldset whose legend names the question. */
export function Radios<V extends string>(props: {
  legend: ReactNode;
  name: string;
  value: NoInfer<V>;
  options: readonly V[];
  optionLabel: (value: V) => ReactNode;
  onChange: (value: V) => void;
}) {
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {props.options.map((v) => (
        <label key={v} className="choice">
          <input
            type="radio"
            name={props.name}
            value={v}
            checked={props.value === v}
            onChange={() => props.onChange(v)}
          />
          {props.optionLabel(v)}
        </label>
      ))}
    </fieldset>
  );
}
