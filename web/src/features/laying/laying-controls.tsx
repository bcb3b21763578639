import { TEXT_BUNDLES } from '@tessera/contract';
import { ColourField, NumberField, SelectField } from './laying-fields';
import { LIMITS, type LayingSettings } from './laying-settings';
import type { LayingPattern } from './patterns';
import type { RotationMode } from './placement';
import { useTexts } from '../../lib/i18n';

export interface LayingControlsProps {
  settings: LayingSettings;
  sizes: readonly string[];
  patterns: readonly LayingPattern[];
  rotations: readonly RotationMode[];
  onChange: (change: Partial<LayingSettings>) => void;
}

/** The laying preview's fields: tile, pattern, joint, grout, turns, room and seed. */
export function LayingControls({
  settings,
  sizes,
  patterns,
  rotations,
  onChange,
}: LayingControlsProps) {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const { roomM, jointMm, seed } = LIMITS;
  return (
    <div className="laying-controls">
      <SelectField
        label={TEXTS.layingTileSize}
        value={settings.tileSize}
        options={sizes}
        onValue={(tileSize) => onChange({ tileSize })}
      />
      <SelectField
        label={TEXTS.layingPattern}
        value={settings.pattern}
        options={patterns}
        text={(pattern) => TEXTS.layingPatterns[pattern]}
        onValue={(pattern) => onChange({ pattern })}
      />
      <NumberField
        label={TEXTS.layingJoint}
        limits={jointMm}
        value={settings.jointMm}
        onValue={(value) => onChange({ jointMm: value })}
      />
      <ColourField
        label={TEXTS.layingGroutColour}
        value={settings.groutColour}
        onValue={(groutColour) => onChange({ groutColour })}
      />
      <SelectField
        label={TEXTS.layingRotation}
        value={settings.rotation}
        options={rotations}
        text={(rotation) => TEXTS.layingRotations[rotation]}
        onValue={(rotation) => onChange({ rotation })}
      />
      <NumberField
        label={TEXTS.layingRoomWidth}
        limits={roomM}
        value={settings.roomWidthM}
        onValue={(roomWidthM) => onChange({ roomWidthM })}
      />
      <NumberField
        label={TEXTS.layingRoomDepth}
        limits={roomM}
        value={settings.roomDepthM}
        onValue={(roomDepthM) => onChange({ roomDepthM })}
      />
      <NumberField
        label={TEXTS.layingSeed}
        limits={seed}
        value={settings.seed}
        onValue={(value) => onChange({ seed: value })}
        whole
        action={
          <button
            type="button"
            className="button"
            onClick={() =>
              // Any other seed: a step of 1..max around the range never lands on this one.
              onChange({
                seed: (settings.seed + 1 + Math.floor(Math.random() * seed.max)) % (seed.max + 1),
              })
            }
          >
            {TEXTS.layingNewSeed}
          </button>
        }
      />
    </div>
  );
}
