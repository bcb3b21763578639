import {
  MATERIAL_PACKAGE_FILES,
  MATERIAL_PRESET_FILES,
  materialPackageFileName,
  presetHasScenes,
  TEXT_BUNDLES,
  textsIn,
  type Locale,
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
  /** The language the reader chose in the interface. */
  locale: Locale;
}

/** README.txt of a material package: the size, the naming convention and each file. */
export function packageReadme(facts: ReadmeFacts): string {
  const README = textsIn(TEXT_BUNDLES.materialReadme, facts.locale);
  const MATERIAL_TEXTS = textsIn(TEXT_BUNDLES.material, facts.locale);
  const files = MATERIAL_PRESET_FILES[facts.preset].map(
    (file) => [materialPackageFileName(facts.name, file), README.files[file]] as const,
  );
  if (presetHasScenes(facts.preset)) {
    files.push([`${facts.name}.glb`, README.glb], [`${facts.name}.mtlx`, README.mtlx]);
  }
  files.push(['README.txt', README.readme]);
  const labelled: [string, string][] = [
    [README.madeFromLabel, README.madeFrom(facts.image, facts.kind.toUpperCase())],
    [README.presetLabel, MATERIAL_TEXTS.presets[facts.preset]],
    [README.tileLabel, README.tile(facts)],
    [README.seamlessLabel, facts.seamless ? README.seamlessYes : README.seamlessNo],
  ];
  const suffixes = Object.values(MATERIAL_PACKAGE_FILES).join(', ');
  return [
    README.title(facts.name),
    '',
    ...inColumns(labelled),
    '',
    ...README.conventions(suffixes, facts.displacementM).split('\n'),
    '',
    README.filesHeading,
    ...inColumns(files).map((line) => `  ${line}`),
    '',
  ].join('\r\n');
}

/**
 * Each label and its value, the values in one column two spaces after the longest label; a
 * value's further lines ("\n") go on in that column.
 */
function inColumns(rows: readonly (readonly [string, string])[]): string[] {
  const column = Math.max(...rows.map(([label]) => label.length)) + 2;
  return rows.flatMap(([label, value]) =>
    value
      .split('\n')
      .map((line, i) => (i === 0 ? label.padEnd(column) : ' '.repeat(column)) + line),
  );
}
