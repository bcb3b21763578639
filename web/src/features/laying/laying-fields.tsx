import { useId } from 'react';
import type { ReactNode } from 'react';
import { clampNumber } from './laying-settings';

/** A labelled field of the laying preview; the label points at the control `children` makes. */
function Labelled({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="field laying-field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children(id)}
    </div>
  );
}

export interface SelectFieldProps<T extends string | number> {
  label: string;
  value: T;
  options: readonly T[];
  /** The option's text; the value itself when absent. */
  text?: (option: T) => string;
  onValue: (value: T) => void;
}

/** A choice among `options`. */
export function SelectField<T extends string | number>({
  label,
  value,
  options,
  text = String,
  onValue,
}: SelectFieldProps<T>) {
  return (
    <Labelled label={label}>
      {(id) => (
        <select
          id={id}
          className="field-input"
          value={value}
          onChange={(e) => {
            const chosen = options.find((option) => String(option) === e.target.value);
            if (chosen !== undefined) onValue(chosen);
          }}
        >
          {options.map((option) => (
            <option key={option} value={option}>
              {text(option)}
            </option>
          ))}
        </select>
      )}
    </Labelled>
  );
}

export interface NumberFieldProps {
  label: string;
  limits: { readonly min: number; readonly max: number; readonly step?: number };
  value: number;
  onValue: (value: number) => void;
  /** Whole numbers only (the step is 1). */
  whole?: boolean;
  /**
   * A button beside the field that sets its value too: the field then shows `value` at all times;
   * without one, it keeps what is typed (a half-typed number is not replaced).
   */
  action?: ReactNode;
}

/** A number kept within its limits; a text that is no number keeps the last value. */
export function NumberField({ label, limits, value, onValue, whole, action }: NumberFieldProps) {
  return (
    <Labelled label={label}>
      {(id) => {
        const input = (
          <input
            id={id}
            className="field-input"
            type="number"
            min={limits.min}
            max={limits.max}
            step={whole ? 1 : limits.step}
            {...(action ? { value } : { defaultValue: value })}
            onChange={(e) => {
              const next = clampNumber(e.target.value, limits.min, limits.max, value);
              onValue(whole ? Math.round(next) : next);
            }}
          />
        );
        if (!action) return input;
        return (
          <div className="laying-seed">
            {input}
            {action}
          </div>
        );
      }}
    </Labelled>
  );
}

/** A colour, picked with the browser's colour chooser. */
export function ColourField({
  label,
  value,
  onValue,
}: {
  label: string;
  value: string;
  onValue: (value: string) => void;
}) {
  return (
    <Labelled label={label}>
      {(id) => (
        <input
          id={id}
          className="field-input laying-colour"
          type="color"
          value={value}
          onChange={(e) => onValue(e.target.value)}
        />
      )}
    </Labelled>
  );
}
