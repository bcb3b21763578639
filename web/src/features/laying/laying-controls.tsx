import { TEXTS } from '@tessera/contract';
import { useId } from 'react';
import type { ReactNode } from 'react';
import { clampNumber, LIMITS, type LayingSettings } from './laying-settings';
import type { LayingPattern } from './patterns';
import type { RotationMode } from './placement';

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
  const { roomM, jointMm, seed } = LIMITS;
  return (
    <div className="laying-controls">
      <Labelled label={TEXTS.layingTileSize}>
        {(id) => (
          <select
            id={id}
            className="field-input"
            value={settings.tileSize}
            onChange={(e) => onChange({ tileSize: e.target.value })}
          >
            {sizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      <Labelled label={TEXTS.layingPattern}>
        {(id) => (
          <select
            id={id}
            className="field-input"
            value={settings.pattern}
            onChange={(e) => onChange({ pattern: e.target.value as LayingPattern })}
          >
            {patterns.map((pattern) => (
              <option key={pattern} value={pattern}>
                {TEXTS.layingPatterns[pattern]}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      <Labelled label={TEXTS.layingJoint}>
        {(id) => (
          <input
            id={id}
            className="field-input"
            type="number"
            min={jointMm.min}
            max={jointMm.max}
            step={jointMm.step}
            defaultValue={settings.jointMm}
            onChange={(e) =>
              onChange({
                jointMm: clampNumber(e.target.value, jointMm.min, jointMm.max, settings.jointMm),
              })
            }
          />
        )}
      </Labelled>
      <Labelled label={TEXTS.layingGroutColour}>
        {(id) => (
          <input
            id={id}
            className="field-input laying-colour"
            type="color"
            value={settings.groutColour}
            onChange={(e) => onChange({ groutColour: e.target.value })}
          />
        )}
      </Labelled>
      <Labelled label={TEXTS.layingRotation}>
        {(id) => (
          <select
            id={id}
            className="field-input"
            value={settings.rotation}
            onChange={(e) => onChange({ rotation: e.target.value as RotationMode })}
          >
            {rotations.map((rotation) => (
              <option key={rotation} value={rotation}>
                {TEXTS.layingRotations[rotation]}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      <Labelled label={TEXTS.layingRoomWidth}>
        {(id) => (
          <input
            id={id}
            className="field-input"
            type="number"
            min={roomM.min}
            max={roomM.max}
            step={roomM.step}
            defaultValue={settings.roomWidthM}
            onChange={(e) =>
              onChange({
                roomWidthM: clampNumber(e.target.value, roomM.min, roomM.max, settings.roomWidthM),
              })
            }
          />
        )}
      </Labelled>
      <Labelled label={TEXTS.layingRoomDepth}>
        {(id) => (
          <input
            id={id}
            className="field-input"
            type="number"
            min={roomM.min}
            max={roomM.max}
            step={roomM.step}
            defaultValue={settings.roomDepthM}
            onChange={(e) =>
              onChange({
                roomDepthM: clampNumber(e.target.value, roomM.min, roomM.max, settings.roomDepthM),
              })
            }
          />
        )}
      </Labelled>
      <Labelled label={TEXTS.layingSeed}>
        {(id) => (
          <div className="laying-seed">
            <input
              id={id}
              className="field-input"
              type="number"
              min={seed.min}
              max={seed.max}
              step={1}
              value={settings.seed}
              onChange={(e) =>
                onChange({
                  seed: Math.round(clampNumber(e.target.value, seed.min, seed.max, settings.seed)),
                })
              }
            />
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
          </div>
        )}
      </Labelled>
    </div>
  );
}

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
