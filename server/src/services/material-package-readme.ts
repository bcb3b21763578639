import {
  MATERIAL_PACKAGE_FILES,
  MATERIAL_PRESET_FILES,
  MATERIAL_PRESET_LABELS,
  MATERIAL_TEXTS,
  materialPackageFileName,
  presetHasScenes,
  type MaterialPreset,
} from '@tessera/contract';

export interface ReadmeFacts {
  /** The package's name (`waves_ld`). */
  name: string;
  /** The image it was made from, and its gallery. */
  image: string;
  kind: 'ld' | 'hd';
  preset: MaterialPreset;
  /** The tile's size label ("60x120") and its sides in centimetres. */
  sizeLabel: string;
  widthCm: number;
  heightCm: number;
  seamless: boolean;
  displacementM: number;
}

const metres = (cm: number) => String(Number((cm / 100).toFixed(4)));

/** README.txt of a material package: the size, the naming convention and each file. */
export function packageReadme(facts: ReadmeFacts): string {
  const files = MATERIAL_PRESET_FILES[facts.preset].map(
    (file) => [materialPackageFileName(facts.name, file), MATERIAL_TEXTS.files[file]] as const,
  );
  if (presetHasScenes(facts.preset)) {
    files.push(
      [`${facts.name}.glb`, MATERIAL_TEXTS.glb],
      [`${facts.name}.mtlx`, MATERIAL_TEXTS.mtlx],
    );
  }
  const column = Math.max(...files.map(([name]) => name.length)) + 2;
  const suffixes = Object.values(MATERIAL_PACKAGE_FILES).join(', ');
  return [
    `${facts.name}: a material made by Tessera`,
    '',
    `Made from:  ${facts.image} (${facts.kind.toUpperCase()} image) and its material maps`,
    `Preset:     ${MATERIAL_PRESET_LABELS[facts.preset]}`,
    `Tile:       ${facts.widthCm} x ${facts.heightCm} cm (${metres(facts.widthCm)} x ${metres(facts.heightCm)} m, width x height), size ${facts.sizeLabel}.`,
    '            Each texture covers one tile of this size: in a 3D tool, repeat it once per',
    `            ${metres(facts.widthCm)} m across and ${metres(facts.heightCm)} m up.`,
    facts.seamless
      ? 'Seamless:   yes; the maps wrap around the edges, so tiles join without seams.'
      : 'Seamless:   no; the image was not made seamless, so repeated tiles show their edges.',
    '',
    "Names follow Poly Haven's convention, <name>_<map>.png, with its short map names",
    `(${suffixes}), which Blender's Node Wrangler and most texture importers recognise.`,
    'Colour maps are sRGB; every other map is linear data. Metalness is 0 throughout.',
    `Height: mid-grey is the surface; the MaterialX document displaces it by ${facts.displacementM} m`,
    'over the full range (white rises, black sinks, each by half of that).',
    '',
    'Files',
    ...files.map(([name, what]) => `  ${name.padEnd(column)}${what}`),
    '  README.txt'.padEnd(column + 2) + 'this file',
    '',
  ].join('\r\n');
}
