import {
  MATERIAL_PRESETS,
  materialPackageUrl,
  TEXT_BUNDLES,
  type HdSizeLabel,
  type MaterialPreset,
} from '@tessera/contract';
import { useId, useState } from 'react';
import { DownloadIcon } from '../../components/icons';
import { useLocale, useTexts } from '../../lib/i18n';

export interface MaterialPackageDownloadProps {
  kind: 'ld' | 'hd';
  image: string;
  /**
   * An LD image's HD sizes, one of which its tile takes (the first unless chosen). Absent for an
   * HD image, whose tile is its own ordered size.
   */
  tileSizes?: readonly HdSizeLabel[] | undefined;
}

/**
 * "Download material" (issue 26, part 3): a preset and, for an LD image, the tile's size, then a
 * plain link the browser downloads itself (the server streams the ZIP; the tab holds nothing).
 */
export function MaterialPackageDownload({ kind, image, tileSizes }: MaterialPackageDownloadProps) {
  const MATERIAL_TEXTS = useTexts(TEXT_BUNDLES.material);
  const lang = useLocale();
  const [preset, setPreset] = useState<MaterialPreset>('standard');
  const [chosenSize, setChosenSize] = useState<string>();
  if (tileSizes?.length === 0) {
    return <p className="material-package-note">{MATERIAL_TEXTS.noTileSize}</p>;
  }
  const size = tileSizes?.find((label) => label === chosenSize) ?? tileSizes?.[0];
  const href = materialPackageUrl({ kind, image, preset, lang, ...(size && { size }) });
  return (
    <div className="material-package" role="group" aria-label={MATERIAL_TEXTS.package}>
      <div className="material-package-fields">
        <LabelledSelect
          label={MATERIAL_TEXTS.preset}
          value={preset}
          options={MATERIAL_PRESETS}
          text={(name) => MATERIAL_TEXTS.presets[name]}
          onValue={setPreset}
        />
        {tileSizes && size && (
          <LabelledSelect
            label={MATERIAL_TEXTS.tileSize}
            value={size}
            options={tileSizes}
            text={MATERIAL_TEXTS.tileSizeOption}
            onValue={setChosenSize}
          />
        )}
      </div>
      <a className="button" href={href} download>
        <DownloadIcon />
        {MATERIAL_TEXTS.download}
      </a>
      <p className="material-package-note">{MATERIAL_TEXTS.note(kind)}</p>
    </div>
  );
}

interface LabelledSelectProps<T extends string> {
  label: string;
  value: T;
  options: readonly T[];
  text: (option: T) => string;
  onValue: (value: T) => void;
}

/** A label and its choice, side by side in the package's fields. */
function LabelledSelect<T extends string>({
  label,
  value,
  options,
  text,
  onValue,
}: LabelledSelectProps<T>) {
  const id = useId();
  return (
    <>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="field-input"
        value={value}
        onChange={(event) => onValue(event.target.value as T)}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {text(option)}
          </option>
        ))}
      </select>
    </>
  );
}
