// Honest detail (issue 26, part 2): how much of a print is detail the engines generated and how
// much is enlargement, as pixels per centimetre of each stage. The HD service records the width
// of the last generated stage (the upscaling network's output) as HD_DETAIL_WIDTH_KEY.
import type { Translation } from './i18n.js';
import { fixedNumber } from './number-format.js';

/** HD metadata: the pixel width of the image the engine's network made, before any resample. */
export const HD_DETAIL_WIDTH_KEY = 'detail_width';

export interface DetailFigures {
  /** The LD image over the print's width. */
  ldPxPerCm: number;
  /** What the network generated (absent where the HD record does not say: made before). */
  generatedPxPerCm?: number;
  /** The HD file. */
  hdPxPerCm: number;
  /** The print file, when a resolution is chosen. */
  printPxPerCm?: number;
  /**
   * The share of the final pixels' detail that was generated, 0–1: generated ÷ final density
   * (the print's, else the HD's); the rest is enlargement. Absent with generatedPxPerCm.
   */
  generatedShare?: number;
}

/** Pixels per centimetre for a dpi. */
export function pxPerCmOfDpi(dpi: number): number {
  return dpi / 2.54;
}

/**
 * The figures for an HD image `hdWidth` px wide printing `widthCm` wide, made from an LD image
 * `ldWidth` px wide whose network output was `detailWidth` px wide, printed at `printDpi`.
 */
export function detailFigures(input: {
  widthCm: number;
  ldWidth: number;
  hdWidth: number;
  detailWidth?: number;
  printDpi?: number;
}): DetailFigures {
  const per = (px: number) => px / input.widthCm;
  const hdPxPerCm = per(input.hdWidth);
  const printPxPerCm = input.printDpi === undefined ? undefined : pxPerCmOfDpi(input.printDpi);
  // The network's detail never exceeds the HD file's own (a ×4 network output resampled down).
  const generatedPxPerCm =
    input.detailWidth === undefined ? undefined : Math.min(per(input.detailWidth), hdPxPerCm);
  const final = printPxPerCm ?? hdPxPerCm;
  return {
    ldPxPerCm: per(input.ldWidth),
    hdPxPerCm,
    ...(generatedPxPerCm !== undefined && {
      generatedPxPerCm,
      generatedShare: Math.min(1, generatedPxPerCm / final),
    }),
    ...(printPxPerCm !== undefined && { printPxPerCm }),
  };
}

/** The share as a whole percent, never 100 unless it is all generated (99.6 % stays 99). */
export function generatedPercent(share: number): number {
  return share >= 1 ? 100 : Math.min(99, Math.round(share * 100));
}

/** The Detail section's texts (HD details and the print dialog), numbers in es-ES. */
export const DETAIL_TEXTS = {
  heading: 'Detalle',
  ld: 'Imagen LD',
  generated: 'Detalle generado',
  hd: 'Archivo HD',
  print: 'Archivo de impresión',
  pxPerCm: (pxPerCm: number) =>
    `${fixedNumber(pxPerCm, 1, 'es')} px/cm (${Math.round(pxPerCm * 2.54)} ppp)`,
  notRecorded: 'no consta',
  /** The plain sentence: how much of the final pixels' detail the engine made. */
  share: (share: number, of: 'print' | 'hd') => {
    const what = of === 'print' ? 'de la impresión' : 'del archivo HD';
    const percent = generatedPercent(share);
    return percent === 100
      ? `Todo el detalle ${what} se ha generado; nada es ampliación.`
      : `El ${percent} % del detalle ${what} se ha generado; el resto es ampliación.`;
  },
  shareNotRecorded:
    'Esta imagen HD se hizo antes de que Tessera registrara lo que genera el motor, así que no consta qué parte se ha generado.',
} as const;

/** DETAIL_TEXTS in English. */
export const DETAIL_TEXTS_EN: Translation<typeof DETAIL_TEXTS> = {
  heading: 'Detail',
  ld: 'LD image',
  generated: 'Generated detail',
  hd: 'HD file',
  print: 'Print file',
  pxPerCm: (pxPerCm: number) =>
    `${fixedNumber(pxPerCm, 1, 'en')} px/cm (${Math.round(pxPerCm * 2.54)} dpi)`,
  notRecorded: 'not recorded',
  share: (share: number, of: 'print' | 'hd') => {
    const what = of === 'print' ? "the print's" : "the HD file's";
    const percent = generatedPercent(share);
    return percent === 100
      ? `All of ${what} detail was generated; none of it is enlargement.`
      : `${percent} % of ${what} detail was generated; the rest is enlargement.`;
  },
  shareNotRecorded:
    'This HD image was made before Tessera recorded what the engine generated, so the generated share is not recorded.',
};
