// What a ZIP download of a selection says as it goes (issue 13, feature 10), in Spanish with its
// English twin (issue 30, part 5); sizes in each language's locale.
import type { Translation } from './i18n.js';
import { formatFileSize } from './number-format.js';

const imagesEs = (files: number) => (files === 1 ? '1 imagen' : `${files} imágenes`);
const imagesEn = (files: number) => (files === 1 ? '1 image' : `${files} images`);

export const ZIP_TEXTS = {
  download: 'Descargar ZIP',
  /** Names the status line and its bar. */
  status: 'Descarga del ZIP',
  progress: 'Progreso de la descarga del ZIP',
  dismiss: 'Cerrar el estado de la descarga del ZIP',
  preparing: (files: number) => `Preparando el ZIP de ${imagesEs(files)}…`,
  /** The size is not known yet: the bytes so far. */
  downloading: (sent: number) => `Descargando… ${formatFileSize(sent, 'es')}`,
  downloadingOf: (percent: number, sent: number, total: number) =>
    `Descargando… ${percent} % (${formatFileSize(sent, 'es')} de ${formatFileSize(total, 'es')})`,
  /** The server has sent the last byte; the browser's download list shows when it is saved. */
  done: (files: number, total: number) =>
    `ZIP enviado: ${imagesEs(files)}, ${formatFileSize(total, 'es')}. Tu navegador lo guarda.`,
  failed: (error: string) => `Ha fallado la descarga del ZIP: ${error}`,
  lost: 'El servidor ya no conoce esta descarga',
} as const;

/** ZIP_TEXTS in English. */
export const ZIP_TEXTS_EN: Translation<typeof ZIP_TEXTS> = {
  download: 'Download ZIP',
  status: 'ZIP download',
  progress: 'ZIP download progress',
  dismiss: 'Dismiss ZIP download status',
  preparing: (files: number) => `Preparing ZIP of ${imagesEn(files)}…`,
  downloading: (sent: number) => `Downloading… ${formatFileSize(sent, 'en')}`,
  downloadingOf: (percent: number, sent: number, total: number) =>
    `Downloading… ${percent} % (${formatFileSize(sent, 'en')} of ${formatFileSize(total, 'en')})`,
  done: (files: number, total: number) =>
    `ZIP sent: ${imagesEn(files)}, ${formatFileSize(total, 'en')}. Your browser saves it.`,
  failed: (error: string) => `ZIP download failed: ${error}`,
  lost: 'The server no longer knows this download',
};

/** The ZIP texts in either language. */
export type ZipTexts = Translation<typeof ZIP_TEXTS>;
