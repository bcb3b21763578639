import {
  GENERATION_RANGES,
  OUTPUT_FORMATS,
  SYNTHESIS_MODES,
  TEXT_BUNDLES,
  synthesisOptionText,
} from '@tessera/contract';
import type {
  GenerationFormErrors,
  OutputFormatName,
  PreviewEngine,
  SynthesisMode,
} from '@tessera/contract';
import { useEffect, useId, useRef } from 'react';
import type { ReactNode } from 'react';
import { ControlHelpLine, isHelpedControl, isInert } from './control-help';
import type { FormFields, NumberFieldName } from './form-state';
import { PromptChips } from './prompt-chips';
import { useTexts } from '../../lib/i18n';
import './engine-help.css';

export interface ParametersSectionProps {
  fields: FormFields;
  errors: GenerationFormErrors;
  onChange: (change: Partial<FormFields>) => void;
  /** The engine previews are made with (issue 27): each control's help says what it does there. */
  engine?: PreviewEngine | undefined;
}

type FieldName = keyof GenerationFormErrors | 'synthesis';

/** The collapsible Generation Parameters of SPEC §2 (checklist G2, G7–G11). */
export function ParametersSection({ fields, errors, onChange, engine }: ParametersSectionProps) {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const texts = useTexts(TEXT_BUNDLES.generate);
  const synthesisTexts = useTexts(TEXT_BUNDLES.synthesis);
  const labels = texts.labels;
  const id = useId();
  const section = useRef<HTMLDetailsElement>(null);
  const hasErrors = Object.keys(errors).length > 0;
  // A refused field must be seen: a collapsed section opens to show it.
  useEffect(() => {
    if (hasErrors && section.current) section.current.open = true;
  }, [hasErrors, errors]);

  const errorOf = (name: FieldName) => (name === 'synthesis' ? undefined : errors[name]);
  /** The id of the control's help line, when it has one on a known engine. */
  const helpId = (name: string) =>
    isHelpedControl(name) && engine !== undefined ? `${id}-${name}-help` : undefined;
  const inert = (name: string) => isHelpedControl(name) && isInert(engine, name);

  const field = (
    name: FieldName,
    label: string,
    control: ReactNode,
    hint?: string,
    after?: ReactNode,
  ) => (
    <div className={`field${inert(name) ? ' is-inert' : ''}`}>
      <label className="field-label" htmlFor={`${id}-${name}`}>
        {label}
      </label>
      {control}
      {isHelpedControl(name) && (
        <ControlHelpLine id={`${id}-${name}-help`} engine={engine} control={name} />
      )}
      {hint && (
        <p id={`${id}-${name}-hint`} className="generate-hint">
          {hint}
        </p>
      )}
      {after}
      {errorOf(name) && (
        <p id={`${id}-${name}-error`} className="generate-field-error">
          {errorOf(name)}
        </p>
      )}
    </div>
  );

  /** The help (on a known engine), the hint (when it has one) and the error describe the control. */
  const describedBy = (name: FieldName, hint = false) => {
    const described = [
      helpId(name),
      hint && `${id}-${name}-hint`,
      errorOf(name) && `${id}-${name}-error`,
    ]
      .filter(Boolean)
      .join(' ');
    return {
      ...(errorOf(name) && { 'aria-invalid': true as const }),
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
        {...describedBy(name)}
      />,
      undefined,
      // Beyond the spec (issue 27): what the builtin engine understood of the prompt.
      engine === 'builtin' && (
        <PromptChips
          prompt={fields[name]}
          side={name === 'positivePrompt' ? 'positive' : 'negative'}
        />
      ),
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
        {...describedBy(name, hint !== undefined)}
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
        {...(helpId(name) && { 'aria-describedby': helpId(name) })}
      />
      <span>{label}</span>
    </label>
  );

  /** Seamless and Mask, side by side as ever, each with its help under it (issue 27). */
  const helpedToggle = (name: 'tiling' | 'mask', label: string) => (
    <div className="generate-toggle-field">
      {toggle(name, label)}
      <ControlHelpLine id={`${id}-${name}-help`} engine={engine} control={name} />
    </div>
  );

  return (
    <details ref={section} className="generate-section" open>
      <summary className="generate-section-title">{texts.parameters}</summary>
      <div className="generate-section-body">
        {prompt('positivePrompt', labels.positivePrompt)}
        {prompt('negativePrompt', labels.negativePrompt)}
        {field(
          'outputFormat',
          labels.outputFormat,
          <select
            id={`${id}-outputFormat`}
            className="field-input"
            value={fields.outputFormat}
            onChange={(event) => onChange({ outputFormat: event.target.value as OutputFormatName })}
            {...describedBy('outputFormat')}
          >
            {OUTPUT_FORMATS.map((format) => (
              <option key={format.name} value={format.name}>
                {format.name} ({format.width}x{format.height})
              </option>
            ))}
          </select>,
        )}
        <div className="generate-grid">
          {number('imaginationWeight', labels.imaginationWeight)}
          {number('similarity', labels.similarity)}
          {number('promptAdherence', labels.promptAdherence)}
          {number('styleWeight', labels.styleWeight)}
        </div>
        <div className="generate-toggles">
          {helpedToggle('tiling', labels.tiling)}
          {helpedToggle('mask', labels.mask)}
        </div>
        {/* Beyond the spec (issue 27): how the builtin engine makes the previews. */}
        {field(
          'synthesis',
          synthesisTexts.label,
          <select
            id={`${id}-synthesis`}
            className="field-input"
            value={fields.synthesis}
            onChange={(event) => onChange({ synthesis: event.target.value as SynthesisMode })}
            {...describedBy('synthesis')}
          >
            {SYNTHESIS_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {synthesisOptionText(mode, synthesisTexts)}
              </option>
            ))}
          </select>,
        )}
        <div className="generate-grid">
          {number('batchSize', labels.batchSize)}
          {/* Beyond the spec (issue 25): each batch item is a series of this many faces. */}
          {number('faces', labels.faces, TEXTS.facesHint)}
        </div>
        <div className="generate-seed">
          {toggle('useFixedSeed', labels.useFixedSeed)}
          <p className="generate-hint">
            {fields.useFixedSeed ? texts.fixedSeed(fields.fixedSeed) : texts.randomSeed}
          </p>
        </div>
      </div>
    </details>
  );
}
