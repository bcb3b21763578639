// References that cannot work (issue 27, part 5): the check of a reference at upload
// (API_ROUTES.referenceAnalysis), the lighting removal the preparation step asks for
// (API_ROUTES.referenceDelight), and every text of the warnings and of the preparation step.
// Beyond SPEC §7; the spec's upload area, checks (U1–U4) and flow stay as they are. The texts are
// Spanish (the default language) with their English twins (issue 30, part 5); the server sends
// the Spanish ones and the web shows a warning by its code in the language chosen.
import { z } from 'zod';
import type { Translation } from './i18n.js';

export const REFERENCE_WARNING_CODES = ['perspective', 'object', 'lighting'] as const;
export type ReferenceWarningCode = (typeof REFERENCE_WARNING_CODES)[number];

/** What each warning tells the person: what is wrong, what it does, what to do. */
export const REFERENCE_WARNING_TEXTS = {
  perspective:
    'Esta foto parece tomada en ángulo: sus líneas convergen y su dibujo se encoge hacia un lado. El motor integrado copia trozos de ella tal cual, así que el resultado mostraría formas en V y líneas rotas. Endérezala en Preparar referencia (arrastra cuatro esquinas sobre el suelo) o usa una foto tomada justo desde arriba.',
  object:
    'Algo grande destaca sobre la textura (un objeto, una mancha o una sombra). El motor integrado lo copiaría a trozos por todo el resultado. Recórtalo en Preparar referencia o elige una referencia sin él.',
  lighting:
    'La luz cambia mucho de un lado a otro de esta foto. Quitar la iluminación en Preparar referencia da una textura más uniforme.',
} as const satisfies Record<ReferenceWarningCode, string>;

export const REFERENCE_WARNING_TEXTS_EN: Translation<typeof REFERENCE_WARNING_TEXTS> = {
  perspective:
    'This photo looks taken at an angle: its lines converge and its pattern shrinks towards one side. The builtin engine copies pieces of it as they are, so the result would show V-shapes and broken lines. Straighten it in Prepare reference (drag four corners onto the floor), or use a photo taken from straight above.',
  object:
    'Something large stands out of the texture (an object, a stain or a shadow). The builtin engine would copy it in pieces all over the result. Crop it out in Prepare reference, or choose a reference without it.',
  lighting:
    'The light changes strongly across this photo. Removing the lighting in Prepare reference gives an evener texture.',
};

export const referenceWarningSchema = z.object({
  code: z.enum(REFERENCE_WARNING_CODES),
  message: z.string(),
});
export type ReferenceWarning = z.infer<typeof referenceWarningSchema>;

/** What the analysis measured (docs/engines.md, "References that cannot work", has the rules). */
export const referenceFiguresSchema = z.object({
  /** The size the lines and local means were read at. */
  analysedWidth: z.number().int().nonnegative(),
  analysedHeight: z.number().int().nonnegative(),
  /** Long straight segments found. */
  segments: z.number().int().nonnegative(),
  /** Segments meeting at the best vanishing point, and how far their directions fan out. */
  convergingLines: z.number().int().nonnegative(),
  convergenceSpreadDegrees: z.number().nonnegative(),
  /** That point, in units of the picture (0..1 inside it); null when none. */
  vanishingPoint: z.object({ x: z.number(), y: z.number() }).nullable(),
  /** The largest family of parallel lines, how much its spacing changes, how steadily (0..1). */
  parallelLines: z.number().int().nonnegative(),
  spacingRatio: z.number().nonnegative(),
  spacingSteadiness: z.number().nonnegative(),
  /** The texture's scale change from end to end (≥ 1), how steady (R², 0..1), along which axis. */
  scaleRatio: z.number().nonnegative(),
  scaleSteadiness: z.number().nonnegative(),
  scaleAxis: z.enum(['vertical', 'horizontal']),
  /** The largest object region's share of the picture, and the highest object contrast. */
  objectArea: z.number().nonnegative(),
  objectContrast: z.number().nonnegative(),
  /** The lighting drift's range in 8-bit levels, and the share of the local means it explains. */
  lightingRange: z.number().nonnegative(),
  lightingShare: z.number().nonnegative(),
});
export type ReferenceFigures = z.infer<typeof referenceFiguresSchema>;

/** The answer of API_ROUTES.referenceAnalysis: the reference's size, its warnings, the figures. */
export const referenceAnalysisSchema = z.object({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  warnings: z.array(referenceWarningSchema),
  figures: referenceFiguresSchema,
});
export type ReferenceAnalysis = z.infer<typeof referenceAnalysisSchema>;

/** The warnings of these codes, each with its text. */
export function referenceWarnings(codes: readonly ReferenceWarningCode[]): ReferenceWarning[] {
  return codes.map((code) => ({ code, message: REFERENCE_WARNING_TEXTS[code] }));
}

/**
 * The preparation step works on the reference at most this many pixels on its long side: the
 * builtin engine works at about the output's area (1024 × 1024 for a Square), and a prepared PNG
 * this size stays well under the upload's 25 MB.
 */
export const REFERENCE_PREP_MAX_SIDE = 2048;

/** The server's refusals of its own (errors.ts files them under their codes). */
export const REFERENCE_ERROR_TEXTS = {
  busy: 'Hay demasiadas referencias comprobándose o preparándose a la vez. Vuelve a intentarlo en un momento.',
} as const;

export const REFERENCE_ERROR_TEXTS_EN: Translation<typeof REFERENCE_ERROR_TEXTS> = {
  busy: 'Too many references are being checked or prepared at once. Try again in a moment.',
};

/** The screen's texts of the check and the preparation step. */
export const REFERENCE_PREP_TEXTS = {
  checking: 'Comprobando la referencia…',
  warningsTitle: 'Puede que esta referencia no funcione bien',
  checkFailed: (reason: string) => `No se ha podido comprobar la referencia: ${reason}`,
  prepare: 'Preparar referencia',
  dialogTitle: 'Preparar la referencia',
  tools: 'Preparación',
  crop: 'Recortar',
  perspective: 'Enderezar perspectiva',
  lighting: 'Quitar iluminación',
  cropHelp: 'Arrastra un rectángulo sobre la parte que quieres conservar y aplica.',
  perspectiveHelp:
    'Arrastra las cuatro esquinas a las esquinas de una baldosa (o de cualquier rectángulo) del suelo y aplica: esa forma pasa a ser un rectángulo, visto justo desde arriba.',
  lightingHelp:
    'La eliminación de iluminación del motor quita de la imagen la variación de la luz. Compara y quédate con la que prefieras.',
  apply: 'Aplicar',
  startAgain: 'Empezar de nuevo',
  cancel: 'Cancelar',
  use: 'Usar esta referencia',
  removeLighting: 'Quitar la iluminación',
  removingLighting: 'Quitando la iluminación…',
  before: 'Antes',
  after: 'Después: sin iluminación',
  keepBefore: 'Quedarme con el antes',
  keepAfter: 'Quedarme con el después',
  kept: 'Elegida',
  working: 'La referencia en preparación',
  cropArea: 'Zona de recorte',
  corner: (name: string) => `Esquina ${name}`,
  cornerNames: [
    'superior izquierda',
    'superior derecha',
    'inferior derecha',
    'inferior izquierda',
  ] as const,
  size: (width: number, height: number) => `${width}×${height} px`,
  reduced: `Se trabaja a ${REFERENCE_PREP_MAX_SIDE} px como máximo en el lado largo.`,
  loadFailed: 'No se ha podido abrir la referencia para prepararla.',
} as const;

export const REFERENCE_PREP_TEXTS_EN: Translation<typeof REFERENCE_PREP_TEXTS> = {
  checking: 'Checking the reference…',
  warningsTitle: 'This reference may not work well',
  checkFailed: (reason: string) => `The reference could not be checked: ${reason}`,
  prepare: 'Prepare reference',
  dialogTitle: 'Prepare the reference',
  tools: 'Preparation',
  crop: 'Crop',
  perspective: 'Straighten perspective',
  lighting: 'Remove lighting',
  cropHelp: 'Drag a rectangle over the part to keep, then apply.',
  perspectiveHelp:
    'Drag the four corners onto the corners of a tile (or any rectangle) on the floor, then apply: that shape becomes a rectangle, seen from straight above.',
  lightingHelp:
    "The engine's lighting removal takes the light's drift out of the picture. Compare, and keep the one you prefer.",
  apply: 'Apply',
  startAgain: 'Start again',
  cancel: 'Cancel',
  use: 'Use this reference',
  removeLighting: 'Remove the lighting',
  removingLighting: 'Removing the lighting…',
  before: 'Before',
  after: 'After: lighting removed',
  keepBefore: 'Keep before',
  keepAfter: 'Keep after',
  kept: 'Kept',
  working: 'The reference being prepared',
  cropArea: 'Crop area',
  corner: (name: string) => `${name} corner`,
  cornerNames: ['Top-left', 'Top-right', 'Bottom-right', 'Bottom-left'],
  size: (width: number, height: number) => `${width}×${height} px`,
  reduced: `Worked on at ${REFERENCE_PREP_MAX_SIDE} px on the long side at most.`,
  loadFailed: 'The reference could not be opened for preparation.',
};
