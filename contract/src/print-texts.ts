// The print dialog's texts (issue 26, part 1), in Spanish with their English twin (issue 30,
// part 5); the web shows these and no others. Numbers are written in each language's locale.
import type { Translation } from './i18n.js';
import { fixedNumber, formatFileSize, formatCount, plainNumber } from './number-format.js';
import {
  PRINT_BLEED_MM_RANGE,
  PRINT_BLEED_STEP_MM,
  PRINT_DPI_RANGE,
  type PrintBitDepth,
  type PrintCompression,
  type PrintProfile,
  type PrintSettings,
} from './print.js';

/** A print's width and height in centimetres, as the texts state it. */
export interface PrintSize {
  widthCm: number;
  heightCm: number;
}

/** The whole file with its bleed: (cm + 2 × bleed) a side. */
function withBleed(print: PrintSize, bleedMm: number) {
  const bleedCm = (2 * bleedMm) / 10;
  return { widthCm: print.widthCm + bleedCm, heightCm: print.heightCm + bleedCm };
}

/** The compressions by their own names, the same in both languages. */
const COMPRESSIONS = { lzw: 'LZW', deflate: 'Deflate (ZIP)' } as const satisfies Record<
  PrintCompression,
  string
>;

const colourSpaceName = (profile: PrintProfile) =>
  profile.colourSpace === 'cmyk' ? 'CMYK' : 'RGB';

/** Centimetres as a person writes them: 120,6 · 60 · 30,35 (at most two decimals). */
const cmEs = (value: number) => plainNumber(value, 2, 'es');
const cmEn = (value: number) => plainNumber(value, 2, 'en');

export const PRINT_TEXTS = {
  open: 'Descargar para imprimir',
  title: 'Descargar para imprimir',
  settings: 'Ajustes de impresión',
  resolution: 'Resolución',
  dpiButton: (dpi: number) => `${dpi} ppp`,
  dpiTyped: 'Otra resolución (ppp)',
  bleed: 'Sangrado (mm)',
  compression: 'Compresión',
  compressions: COMPRESSIONS,
  bitDepth: 'Bits por canal',
  bits: (bits: PrintBitDepth) => `${bits} bits`,
  profile: 'Perfil de color',
  profileOption: (profile: PrintProfile) => `${profile.name} (${colourSpaceName(profile)})`,
  profilesError: 'No se han podido leer los perfiles de color; se ofrece sRGB.',
  dpiInvalid: `La resolución debe ser un número entero de ${PRINT_DPI_RANGE.min} a ${PRINT_DPI_RANGE.max} ppp.`,
  bleedInvalid: `El sangrado debe ir de ${PRINT_BLEED_MM_RANGE.min} a ${PRINT_BLEED_MM_RANGE.max} mm, en pasos de ${plainNumber(PRINT_BLEED_STEP_MM, 1, 'es')} mm.`,

  // What the file will be, before it is ordered.
  pixels: 'Píxeles',
  pixelSize: (width: number, height: number) =>
    `${formatCount(width, 'es')} × ${formatCount(height, 'es')} px (${fixedNumber((width * height) / 1e6, 1, 'es')} MP)`,
  physicalSize: 'Tamaño de impresión con sangrado',
  physicalSizeValue: (print: PrintSize, bleedMm: number) => {
    const whole = withBleed(print, bleedMm);
    const size = `${cmEs(whole.widthCm)} × ${cmEs(whole.heightCm)} cm`;
    return bleedMm === 0
      ? `${size} (sin sangrado)`
      : `${size} (corte de ${cmEs(print.widthCm)} × ${cmEs(print.heightCm)} cm, ${plainNumber(bleedMm, 1, 'es')} mm de sangrado)`;
  },
  uncompressed: 'Sin comprimir',
  bytes: (bytes: number) => `${formatCount(bytes, 'es')} bytes (${formatFileSize(bytes, 'es')})`,
  estimated: 'Tamaño estimado del archivo',
  estimating: 'Calculando…',
  estimateValue: (bytes: number) => `unos ${formatFileSize(bytes, 'es')}`,
  estimateError: 'No se ha podido estimar el tamaño del archivo.',

  order: 'Crear archivo de impresión',
  ordering: 'Encargando…',

  // The image's print files.
  files: 'Archivos de impresión',
  settingsSummary: (settings: PrintSettings, profileName: string) =>
    [
      `${settings.dpi} ppp`,
      `${plainNumber(settings.bleedMm, 1, 'es')} mm de sangrado`,
      COMPRESSIONS[settings.compression],
      `${settings.bitDepth} bits`,
      profileName,
    ].join(' · '),
  queued: 'Esperando para empezar…',
  making: (percent: number) => `Creando… ${percent} %`,
  progress: 'Progreso del archivo de impresión',
  cancelled: 'Cancelado',
  failed: 'Ha fallado',
  download: 'Descargar',
  downloadSize: (bytes: number) => `Descargar (${formatFileSize(bytes, 'es')})`,
} as const;

/** PRINT_TEXTS in English (British, as the interface writes it). */
export const PRINT_TEXTS_EN: Translation<typeof PRINT_TEXTS> = {
  open: 'Download for print',
  title: 'Download for print',
  settings: 'Print settings',
  resolution: 'Resolution',
  dpiButton: (dpi: number) => `${dpi} dpi`,
  dpiTyped: 'Any resolution (dpi)',
  bleed: 'Bleed (mm)',
  compression: 'Compression',
  compressions: COMPRESSIONS,
  bitDepth: 'Bits per channel',
  bits: (bits: PrintBitDepth) => `${bits}-bit`,
  profile: 'Colour profile',
  profileOption: (profile: PrintProfile) => `${profile.name} (${colourSpaceName(profile)})`,
  profilesError: 'The colour profiles could not be read; sRGB is offered.',
  dpiInvalid: `The resolution must be a whole number from ${PRINT_DPI_RANGE.min} to ${PRINT_DPI_RANGE.max} dpi.`,
  bleedInvalid: `The bleed must be from ${PRINT_BLEED_MM_RANGE.min} to ${PRINT_BLEED_MM_RANGE.max} mm, in steps of ${plainNumber(PRINT_BLEED_STEP_MM, 1, 'en')} mm.`,

  pixels: 'Pixels',
  pixelSize: (width: number, height: number) =>
    `${formatCount(width, 'en')} × ${formatCount(height, 'en')} px (${fixedNumber((width * height) / 1e6, 1, 'en')} MP)`,
  physicalSize: 'Print size with bleed',
  physicalSizeValue: (print: PrintSize, bleedMm: number) => {
    const whole = withBleed(print, bleedMm);
    const size = `${cmEn(whole.widthCm)} × ${cmEn(whole.heightCm)} cm`;
    return bleedMm === 0
      ? `${size} (no bleed)`
      : `${size} (cut ${cmEn(print.widthCm)} × ${cmEn(print.heightCm)} cm, ${plainNumber(bleedMm, 1, 'en')} mm bleed)`;
  },
  uncompressed: 'Uncompressed',
  bytes: (bytes: number) => `${formatCount(bytes, 'en')} bytes (${formatFileSize(bytes, 'en')})`,
  estimated: 'Estimated file size',
  estimating: 'Estimating…',
  estimateValue: (bytes: number) => `about ${formatFileSize(bytes, 'en')}`,
  estimateError: 'The file size could not be estimated.',

  order: 'Make print file',
  ordering: 'Ordering…',

  files: 'Print files',
  settingsSummary: (settings: PrintSettings, profileName: string) =>
    [
      `${settings.dpi} dpi`,
      `${plainNumber(settings.bleedMm, 1, 'en')} mm bleed`,
      COMPRESSIONS[settings.compression],
      `${settings.bitDepth}-bit`,
      profileName,
    ].join(' · '),
  queued: 'Waiting to start…',
  making: (percent: number) => `Making… ${percent} %`,
  progress: 'Print file progress',
  cancelled: 'Cancelled',
  failed: 'Failed',
  download: 'Download',
  downloadSize: (bytes: number) => `Download (${formatFileSize(bytes, 'en')})`,
};
