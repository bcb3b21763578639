import {
  MATERIAL_PRESET_LABELS,
  MATERIAL_PRESETS,
  MATERIAL_TEXTS,
  materialPackageUrl,
  type HdSizeLabel,
  type MaterialPreset,
} from '@tessera/contract';
import { useId, useState } from 'react';
import { DownloadIcon } from '../../components/icons';

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
  const presetId = useId();
  const sizeId = useId();
  const [preset, setPreset] = useState<MaterialPreset>('standard');
  const [chosenSize, setChosenSize] = useState<string>();
  if (tileSizes?.length === 0) {
    return <p className="material-package-note">{MATERIAL_TEXTS.noTileSize}</p>;
  }
  const size = tileSizes?.find((label) => label === chosenSize) ?? tileSizes?.[0];
  const href = materialPackageUrl({ kind, image, preset, ...(size && { size }) });
  return (
    <div className="material-package" role="group" aria-label="Material package">
      <div className="material-package-fields">
        <label className="field-label" htmlFor={presetId}>
          {MATERIAL_TEXTS.preset}
        </label>
        <select
          id={presetId}
          className="field-input"
          value={preset}
          onChange={(event) => setPreset(event.target.value as MaterialPreset)}
        >
          {MATERIAL_PRESETS.map((name) => (
            <option key={name} value={name}>
              {MATERIAL_PRESET_LABELS[name]}
            </option>
          ))}
        </select>
        {tileSizes && (
          <>
            <label className="field-label" htmlFor={sizeId}>
              {MATERIAL_TEXTS.tileSize}
            </label>
            <select
              id={sizeId}
              className="field-input"
              value={size}
              onChange={(event) => setChosenSize(event.target.value)}
            >
              {tileSizes.map((label) => (
                <option key={label} value={label}>
                  {label} cm
                </option>
              ))}
            </select>
          </>
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
