import {
  MATERIAL_HEIGHT_STRENGTH_RANGE,
  TEXT_BUNDLES,
  type HeightSettings,
} from '@tessera/contract';
import { useId } from 'react';
import { useTexts } from '../../lib/i18n';

export interface HeightControlsProps {
  /** The settings the controls show: the stored ones until the person changes them. */
  value: HeightSettings;
  onChange: (next: HeightSettings) => void;
  /** While maps are being made: a change could not be applied until they are done. */
  disabled: boolean;
  /** The current height map's small copy, when there are maps. */
  heightMapUrl?: string | undefined;
}

/**
 * How the height is read from the picture (issue 26, part 4): inverted (dark is high: light
 * mortar between darker bricks lies low) and the relief's strength, beside the height map they
 * made, so a person sees whether the mortar came out low.
 */
export function HeightControls({ value, onChange, disabled, heightMapUrl }: HeightControlsProps) {
  const TEXT = useTexts(TEXT_BUNDLES.materialMaps);
  const id = useId();
  const { min, max, step } = MATERIAL_HEIGHT_STRENGTH_RANGE;
  const strengthText = TEXT.heightStrengthValue(value.strength);
  return (
    <div className="material-height">
      {heightMapUrl !== undefined && (
        <img className="material-height-map" src={heightMapUrl} alt={TEXT.heightMap} />
      )}
      <fieldset className="material-height-fields" disabled={disabled}>
        <legend className="details-label">{TEXT.height}</legend>
        <label className="material-height-invert">
          <input
            type="checkbox"
            checked={value.invert}
            aria-describedby={`${id}-hint`}
            onChange={(event) => onChange({ ...value, invert: event.target.checked })}
          />
          <span>{TEXT.invertHeight}</span>
        </label>
        <p id={`${id}-hint`} className="material-maps-hint">
          {TEXT.invertHeightHint}
        </p>
        <div className="material-height-strength">
          <label htmlFor={`${id}-strength`}>{TEXT.heightStrength}</label>
          <input
            id={`${id}-strength`}
            type="range"
            min={min}
            max={max}
            step={step}
            value={value.strength}
            aria-valuetext={strengthText}
            onChange={(event) => onChange({ ...value, strength: Number(event.target.value) })}
          />
          <output htmlFor={`${id}-strength`}>{strengthText}</output>
        </div>
      </fieldset>
    </div>
  );
}
