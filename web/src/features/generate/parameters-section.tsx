import { GENERATION_RANGES, OUTPUT_FORMATS, TEXTS } from '@tessera/contract';
import type { GenerationFormErrors, OutputFormatName } from '@tessera/contract';
import { useEffect, useId, useRef } from 'react';
import type { ReactNode } from 'react';
import type { FormFields, NumberFieldName } from './form-state';

export interface ParametersSectionProps {
  fields: FormFields;
  errors: GenerationFormErrors;
  onChange: (change: Partial<FormFields>) => void;
}

/** The collapsible Generation Parameters of SPEC §2 (checklist G2, G7–G11). */
export function ParametersSection({ fields, errors, onChange }: ParametersSectionProps) {
  const id = useId();
  const section = useRef<HTMLDetailsElement>(null);
  const hasErrors = Object.keys(errors).length > 0;
  // A refused field must be seen: a collapsed section opens to show it.
  useEffect(() => {
    if (hasErrors && section.current) section.current.open = true;
  }, [hasErrors, errors]);

  const field = (
    name: keyof GenerationFormErrors,
    label: string,
    control: ReactNode,
    hint?: string,
  ) => (
    <div className="field">
      <label className="field-label" htmlFor={`${id}-${name}`}>
        {label}
      </label>
      {control}
      {hint && (
        <p id={`${id}-${name}-hint`} className="generate-hint">
          {hint}
        </p>
      )}
      {errors[name] && (
        <p id={`${id}-${name}-error`} className="generate-field-error">
          {errors[name]}
        </p>
      )}
    </div>
  );

  /** The error (when refused) and the hint (when it has one) describe the control. */
  const errorProps = (name: keyof GenerationFormErrors, hint = false) => {
    const described = [hint && `${id}-${name}-hint`, errors[name] && `${id}-${name}-error`]
      .filter(Boolean)
      .join(' ');
    return {
      ...(errors[name] && { 'aria-invalid': true as const }),
      ...(described !== '' && { 'aria-describedby': described }),
    };
  };

  const prompt = (name: 'positivePrompt' | 'negativePrompt', label: string) =>
    field(
      name,
      label,
      <textarea
        id={`${id}-${name}`}
        className="field-input generate-prompt"
        rows={3}
        value={fields[name]}
        onChange={(event) => onChange({ [name]: event.target.value })}
        {...errorProps(name)}
      />,
    );

  const number = (name: NumberFieldName, label: string, hint?: string) => {
    const range = GENERATION_RANGES[name];
    const whole = name === 'batchSize' || name === 'faces';
    return field(
      name,
      label,
      <input
        id={`${id}-${name}`}
        className="field-input"
        type="number"
        inputMode={whole ? 'numeric' : 'decimal'}
        min={range.min}
        max={range.max}
        step={range.step}
        value={fields[name]}
        onChange={(event) => onChange({ [name]: event.target.value })}
        {...errorProps(name, hint !== undefined)}
      />,
      hint,
    );
  };

  const toggle = (name: 'tiling' | 'mask' | 'useFixedSeed', label: string) => (
    <label className="generate-toggle">
      <input
        type="checkbox"
        role="switch"
        checked={fields[name]}
        onChange={(event) => onChange({ [name]: event.target.checked })}
      />
      <span>{label}</span>
    </label>
  );

  return (
    <details ref={section} className="generate-section" open>
      <summary className="generate-section-title">Generation Parameters</summary>
      <div className="generate-section-body">
        {prompt('positivePrompt', 'Positive Prompt')}
        {prompt('negativePrompt', 'Negative Prompt')}
        {field(
          'outputFormat',
          'Output Format',
          <select
            id={`${id}-outputFormat`}
            className="field-input"
            value={fields.outputFormat}
            onChange={(event) => onChange({ outputFormat: event.target.value as OutputFormatName })}
            {...errorProps('outputFormat')}
          >
            {OUTPUT_FORMATS.map((format) => (
              <option key={format.name} value={format.name}>
                {format.name} ({format.width}x{format.height})
              </option>
            ))}
          </select>,
        )}
        <div className="generate-grid">
          {number('imaginationWeight', 'Imagination Weight')}
          {number('similarity', 'Similarity')}
          {number('promptAdherence', 'Prompt Adherence')}
          {number('styleWeight', 'Style Weight')}
        </div>
        <div className="generate-toggles">
          {toggle('tiling', 'Seamless')}
          {toggle('mask', 'Mask')}
        </div>
        <div className="generate-grid">
          {number('batchSize', 'Batch Size')}
          {/* Beyond the spec (issue 25): each batch item is a series of this many faces. */}
          {number('faces', 'Faces', TEXTS.facesHint)}
        </div>
        <div className="generate-seed">
          {toggle('useFixedSeed', 'Use Fixed Seed')}
          <p className="generate-hint">
            {fields.useFixedSeed
              ? `Seed ${fields.fixedSeed} for every image`
              : 'A random seed for each image'}
          </p>
        </div>
      </div>
    </details>
  );
}
