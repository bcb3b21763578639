// The references screen (/input, beyond the spec; issue 30, part 5): Spanish, with English twins.
import type { Translation } from './i18n.js';

export const INPUT_TEXTS = {
  /** The heading, and the name of the list of references. */
  title: 'Referencias',
  lead: 'Las imágenes de referencia que has subido, con las imágenes generadas a partir de cada una.',
  loading: 'Cargando referencias…',
  empty: 'Aún no hay referencias: sube una en Generate.',
  generatedCount: (count: number) =>
    count === 1 ? '1 imagen generada' : `${count} imágenes generadas`,
  generatedFrom: (filename: string) => `Generadas a partir de ${filename}`,
  use: 'Usar como referencia',
  useFile: (filename: string) => `Usar ${filename} como referencia`,
} as const;

export const INPUT_TEXTS_EN: Translation<typeof INPUT_TEXTS> = {
  title: 'References',
  lead: 'The reference images you uploaded, with the images generated from each.',
  loading: 'Loading references…',
  empty: 'No references yet: upload one on Generate.',
  generatedCount: (count: number) =>
    count === 1 ? '1 generated image' : `${count} generated images`,
  generatedFrom: (filename: string) => `Generated from ${filename}`,
  use: 'Use as reference',
  useFile: (filename: string) => `Use ${filename} as reference`,
};
