// Print files of an HD image (issue 26, part 1): a TIFF at the printer's resolution, with bleed
// around the cut size, in sRGB or in CMYK through an ICC profile the operator installs. The
// shapes and the arithmetic both sides use (the paths are API_ROUTES.print*); beyond SPEC §7.
import { z } from 'zod';
import { fileNameSchema } from './file-name.js';

/** The resolutions offered as buttons; any whole number in PRINT_DPI_RANGE may be typed. */
export const PRINT_DPI_PRESETS = [300, 360] as const;
export const PRINT_DPI_RANGE = { min: 72, max: 1200 } as const;
/** Bleed on each side, in millimetres, in steps of PRINT_BLEED_STEP_MM. */
export const PRINT_BLEED_MM_RANGE = { min: 0, max: 20 } as const;
export const PRINT_BLEED_STEP_MM = 0.5;
export const PRINT_DEFAULT_BLEED_MM = 3;

export const PRINT_COMPRESSIONS = ['lzw', 'deflate'] as const;
export type PrintCompression = (typeof PRINT_COMPRESSIONS)[number];

export const PRINT_BIT_DEPTHS = [8, 16] as const;
export type PrintBitDepth = (typeof PRINT_BIT_DEPTHS)[number];

/** The profile id of sRGB (IEC 61966-2.1), always offered, embedded in the file. */
export const SRGB_PROFILE_ID = 'srgb';

/** One colour choice of the dialog: sRGB, or an ICC profile of the operator's profiles folder. */
export const printProfileSchema = z.object({
  /** 'srgb', or the profile's file name in the profiles folder. */
  id: z.string().min(1),
  /** The profile's own description ("Coated FOGRA39 (ISO 12647-2:2004)"). */
  name: z.string(),
  colourSpace: z.enum(['rgb', 'cmyk']),
});
export type PrintProfile = z.infer<typeof printProfileSchema>;

export const printProfilesResponseSchema = z.object({
  profiles: z.array(printProfileSchema),
});
export type PrintProfilesResponse = z.infer<typeof printProfilesResponseSchema>;

/** How the print file is made; what the dialog sets. */
export const printSettingsSchema = z.object({
  dpi: z.number().int().min(PRINT_DPI_RANGE.min).max(PRINT_DPI_RANGE.max),
  bleedMm: z
    .number()
    .min(PRINT_BLEED_MM_RANGE.min)
    .max(PRINT_BLEED_MM_RANGE.max)
    .refine((mm) => Number.isInteger(mm / PRINT_BLEED_STEP_MM), {
      message: `in steps of ${PRINT_BLEED_STEP_MM} mm`,
    }),
  compression: z.enum(PRINT_COMPRESSIONS),
  bitDepth: z.union([z.literal(8), z.literal(16)]),
  profile: z.string().min(1),
});
export type PrintSettings = z.infer<typeof printSettingsSchema>;

export const PRINT_DEFAULT_SETTINGS: PrintSettings = {
  dpi: 360,
  bleedMm: PRINT_DEFAULT_BLEED_MM,
  compression: 'lzw',
  bitDepth: 8,
  profile: SRGB_PROFILE_ID,
};

/** POST API_ROUTES.printOrder: the HD image (its file name) and the settings. */
export const printOrderSchema = printSettingsSchema.extend({ image: fileNameSchema });
export type PrintOrder = z.infer<typeof printOrderSchema>;

/** GET API_ROUTES.printEstimate's query: the order, its numbers as the query string has them. */
export const printEstimateQuerySchema = printOrderSchema.extend({
  dpi: z.coerce.number().pipe(printSettingsSchema.shape.dpi),
  bleedMm: z.coerce.number().pipe(printSettingsSchema.shape.bleedMm),
  bitDepth: z.coerce.number().pipe(printSettingsSchema.shape.bitDepth),
});

/** The answer of API_ROUTES.printEstimate: how large the file will be. */
export const printEstimateSchema = z.object({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** Exact: the pixels, uncompressed, without the header. */
  uncompressedBytes: z.number().int().positive(),
  /** From a sample of the image compressed with the chosen settings. */
  estimatedBytes: z.number().int().positive(),
});
export type PrintEstimate = z.infer<typeof printEstimateSchema>;

/** One print file of an HD image, from its order to its download. */
export const printFileSchema = z.object({
  /** The job's public id. */
  id: z.string(),
  /** The HD image it was made from. */
  image: fileNameSchema,
  settings: printSettingsSchema,
  status: z.enum(['queued', 'in_progress', 'finished', 'error', 'cancelled']),
  percent: z.number().int().min(0).max(100),
  error: z.string().optional(),
  /** Once finished: the file (downloads from printFileUrl(filename)) and its size. */
  filename: fileNameSchema.optional(),
  bytes: z.number().int().nonnegative().optional(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  createdAt: z.string(),
});
export type PrintFile = z.infer<typeof printFileSchema>;

/** GET API_ROUTES.printFiles?image=: the HD image's print files, newest first. */
export const printFilesQuerySchema = z.object({ image: fileNameSchema });
export const printFilesResponseSchema = z.object({ files: z.array(printFileSchema) });
export type PrintFilesResponse = z.infer<typeof printFilesResponseSchema>;

/** The pixel layout of a print file: the cut size and the bleed around it. */
export interface PrintPixelSize {
  /** The whole file: exactly (cm + 2 × bleed) ÷ 2.54 × dpi, rounded to the nearest pixel. */
  width: number;
  height: number;
  /** The cut size: cm ÷ 2.54 × dpi, rounded. */
  cutWidth: number;
  cutHeight: number;
  /** Bleed pixels on the left and top (right and bottom take the rest of width − cutWidth). */
  bleedLeft: number;
  bleedTop: number;
}

/** Pixels along one side of `cm` at `dpi`. */
function pixelsOf(cm: number, dpi: number): number {
  return Math.round((cm / 2.54) * dpi);
}

/**
 * The print file's pixels for a print `widthCm`×`heightCm` at `dpi` with `bleedMm` on each side.
 * The whole is computed from the whole size (no rounding is added up); the cut is centred in it.
 */
export function printPixelSize(
  print: { widthCm: number; heightCm: number },
  dpi: number,
  bleedMm: number,
): PrintPixelSize {
  const bleedCm = (2 * bleedMm) / 10;
  const width = pixelsOf(print.widthCm + bleedCm, dpi);
  const height = pixelsOf(print.heightCm + bleedCm, dpi);
  const cutWidth = pixelsOf(print.widthCm, dpi);
  const cutHeight = pixelsOf(print.heightCm, dpi);
  return {
    width,
    height,
    cutWidth,
    cutHeight,
    bleedLeft: Math.floor((width - cutWidth) / 2),
    bleedTop: Math.floor((height - cutHeight) / 2),
  };
}

/** Samples per pixel of a print file in a colour space. */
export function printChannels(colourSpace: PrintProfile['colourSpace']): 3 | 4 {
  return colourSpace === 'cmyk' ? 4 : 3;
}

/** The pixels' bytes, uncompressed: what the dialog states as the file's size before. */
export function printUncompressedBytes(
  size: { width: number; height: number },
  channels: number,
  bitDepth: PrintBitDepth,
): number {
  return size.width * size.height * channels * (bitDepth / 8);
}

/** "tile_60x120_360dpi_cmyk-fogra39.tif": how a print file of an HD image is named. */
export const PRINT_FILE_EXTENSION = 'tif';
