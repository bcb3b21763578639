import {
  PRINT_BIT_DEPTHS,
  PRINT_BLEED_MM_RANGE,
  PRINT_BLEED_STEP_MM,
  PRINT_COMPRESSIONS,
  PRINT_DPI_PRESETS,
  PRINT_DPI_RANGE,
  TEXT_BUNDLES,
  type PrintProfile,
} from '@tessera/contract';
import { useId } from 'react';
import { useTexts } from '../../../lib/i18n';
import type { PrintForm, ReadPrintForm } from './print-form';

export interface PrintSettingsFieldsProps {
  form: PrintForm;
  read: ReadPrintForm;
  profiles: readonly PrintProfile[];
  profilesFailed: boolean;
  onChange: (change: Partial<PrintForm>) => void;
}

/** The print dialog's settings: resolution, bleed, compression, bits and colour profile. */
export function PrintSettingsFields({
  form,
  read,
  profiles,
  profilesFailed,
  onChange,
}: PrintSettingsFieldsProps) {
  const PRINT_TEXTS = useTexts(TEXT_BUNDLES.print);
  const id = useId();
  return (
    <div className="print-settings" role="group" aria-label={PRINT_TEXTS.settings}>
      <fieldset className="print-fieldset">
        <legend className="field-label">{PRINT_TEXTS.resolution}</legend>
        <div className="print-choices">
          {PRINT_DPI_PRESETS.map((dpi) => (
            <button
              key={dpi}
              type="button"
              className="button button-small"
              aria-pressed={form.dpi === String(dpi)}
              onClick={() => onChange({ dpi: String(dpi) })}
            >
              {PRINT_TEXTS.dpiButton(dpi)}
            </button>
          ))}
          <label className="print-inline-field" htmlFor={`${id}-dpi`}>
            <span>{PRINT_TEXTS.dpiTyped}</span>
            <input
              id={`${id}-dpi`}
              className="field-input print-number"
              type="number"
              inputMode="numeric"
              min={PRINT_DPI_RANGE.min}
              max={PRINT_DPI_RANGE.max}
              step={1}
              value={form.dpi}
              aria-invalid={read.dpiError !== undefined}
              aria-describedby={read.dpiError === undefined ? undefined : `${id}-dpi-error`}
              onChange={(event) => onChange({ dpi: event.target.value })}
            />
          </label>
        </div>
        {read.dpiError !== undefined && (
          <p id={`${id}-dpi-error`} className="field-error" role="alert">
            {read.dpiError}
          </p>
        )}
      </fieldset>

      <label className="field" htmlFor={`${id}-bleed`}>
        <span className="field-label">{PRINT_TEXTS.bleed}</span>
        <input
          id={`${id}-bleed`}
          className="field-input print-number"
          type="number"
          inputMode="decimal"
          min={PRINT_BLEED_MM_RANGE.min}
          max={PRINT_BLEED_MM_RANGE.max}
          step={PRINT_BLEED_STEP_MM}
          value={form.bleedMm}
          aria-invalid={read.bleedError !== undefined}
          aria-describedby={read.bleedError === undefined ? undefined : `${id}-bleed-error`}
          onChange={(event) => onChange({ bleedMm: event.target.value })}
        />
      </label>
      {read.bleedError !== undefined && (
        <p id={`${id}-bleed-error`} className="field-error" role="alert">
          {read.bleedError}
        </p>
      )}

      <fieldset className="print-fieldset">
        <legend className="field-label">{PRINT_TEXTS.compression}</legend>
        <div className="print-choices">
          {PRINT_COMPRESSIONS.map((compression) => (
            <label key={compression} className="print-radio">
              <input
                type="radio"
                name={`${id}-compression`}
                checked={form.compression === compression}
                onChange={() => onChange({ compression })}
              />
              {PRINT_TEXTS.compressions[compression]}
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className="print-fieldset">
        <legend className="field-label">{PRINT_TEXTS.bitDepth}</legend>
        <div className="print-choices">
          {PRINT_BIT_DEPTHS.map((bitDepth) => (
            <label key={bitDepth} className="print-radio">
              <input
                type="radio"
                name={`${id}-bits`}
                checked={form.bitDepth === bitDepth}
                onChange={() => onChange({ bitDepth })}
              />
              {PRINT_TEXTS.bits(bitDepth)}
            </label>
          ))}
        </div>
      </fieldset>

      <label className="field" htmlFor={`${id}-profile`}>
        <span className="field-label">{PRINT_TEXTS.profile}</span>
        <select
          id={`${id}-profile`}
          className="field-input"
          value={form.profile}
          onChange={(event) => onChange({ profile: event.target.value })}
        >
          {profiles.map((profile) => (
            <option key={profile.id} value={profile.id}>
              {PRINT_TEXTS.profileOption(profile)}
            </option>
          ))}
        </select>
      </label>
      {profilesFailed && <p className="print-note">{PRINT_TEXTS.profilesError}</p>}
    </div>
  );
}
