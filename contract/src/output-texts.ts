// The HD gallery's texts (route /output, SPEC §2): its table, the HD Image Details modal and the
// sidebar's count of HD jobs, in Spanish with their English twin (issue 30, part 5). The spec's
// own ("HD Image Details", the columns Preview, Name, Size, Date, and Download) are verbatim in
// the default language, as SPEC writes them.
import type { Translation } from './i18n.js';
import { plainNumber } from './number-format.js';

export const OUTPUT_TEXTS = {
  /** Names the grid and the table of HD images. */
  images: 'Imágenes HD',
  selectAll: 'Seleccionar todas las imágenes',
  preview: 'Preview',
  name: 'Name',
  size: 'Size',
  date: 'Date',
  downloadDelete: 'Download / Delete',

  // The HD Image Details modal (SPEC §2; print size and resolution: issue 17).
  detailsTitle: 'HD Image Details',
  printSize: 'Tamaño de impresión',
  /** Width × height of the print. */
  printSizeValue: (widthCm: number, heightCm: number) =>
    `${plainNumber(widthCm, 2, 'es')} × ${plainNumber(heightCm, 2, 'es')} cm`,
  resolution: 'Resolución',
  download: 'Download',

  // The sidebar's badge of HD jobs (issue 13, feature 12).
  jobsBadge: 'Trabajos HD en curso o en cola',
  jobsBadgeTitle: (count: number) =>
    count === 1 ? '1 trabajo HD en curso o en cola' : `${count} trabajos HD en curso o en cola`,
} as const;

/** OUTPUT_TEXTS in English. */
export const OUTPUT_TEXTS_EN: Translation<typeof OUTPUT_TEXTS> = {
  images: 'HD images',
  selectAll: 'Select all images',
  preview: 'Preview',
  name: 'Name',
  size: 'Size',
  date: 'Date',
  downloadDelete: 'Download / Delete',

  detailsTitle: 'HD Image Details',
  printSize: 'Print size',
  printSizeValue: (widthCm: number, heightCm: number) =>
    `${plainNumber(widthCm, 2, 'en')} × ${plainNumber(heightCm, 2, 'en')} cm`,
  resolution: 'Resolution',
  download: 'Download',

  jobsBadge: 'HD jobs running or queued',
  jobsBadgeTitle: (count: number) =>
    count === 1 ? '1 HD job running or queued' : `${count} HD jobs running or queued`,
};
