/**
 * The HD output encodings, in one table (issue 24, part 4): the HD service chooses a row by the
 * target's pixel count and names it in the upscale parameters; the engines encode by the row,
 * the physical size is written by its density writer, and the image routes serve its MIME type.
 * A new output format (16-bit PNG, TIFF for print) is one more row. The print rows (issue 26)
 * are never chosen for an HD image: the print render encodes by them (imaging/print/).
 */
import type sharp from 'sharp';
import type { ImageFormat } from './image-header.js';
import { jpegDensity, pngDensity, type DensityWriter } from './physical-size.js';

/**
 * How an encoder may work: `streamed` codes the image strip by strip as libvips computes it
 * (the builtin upscaler, whose largest outputs never exist whole in memory); `optimised` may
 * take a second pass over the image (ComfyUI's outputs, downloaded whole).
 */
export type EncodeMode = 'streamed' | 'optimised';

export interface HdEncodingRow {
  /** The file format, as sniffImageFormat names it (TIFF: print files only). */
  format: ImageFormat | 'tiff';
  /** The extension of the files written (without the dot). */
  extension: string;
  /** Other extensions a name of this format may have (read, never written). */
  aliases: readonly string[];
  mimeType: string;
  /**
   * The encoder's options on a sharp pipeline; `dotsPerInch`, where the encoder writes the
   * density itself (TIFF), else the density writer does after.
   */
  encode(pipeline: sharp.Sharp, mode: EncodeMode, dotsPerInch?: number): sharp.Sharp;
  /** Writes the physical size into the file's header (physical-size.ts); TIFF: the encoder. */
  writeDensity?: DensityWriter;
  /**
   * Chosen for HD outputs of at most this many pixels (the first row that fits wins); 0 for
   * the print rows, which no HD image is written in.
   */
  maxPixels: number;
  /** A print file's encoding (issue 26): never an HD image's, never served as one. */
  printOnly?: true;
  /**
   * Rough seconds per output pixel to resample and encode on one core of the reference machine,
   * only to weigh the stage's share of the builtin upscaler's progress bar.
   */
  encodeSecondsPerPixel: number;
}

/**
 * HD images up to this many pixels are PNG (lossless, and the largest, 25 MP, still encodes in a
 * few seconds); larger ones are JPEG at quality 92 with full-resolution colour, since a PNG of
 * 133 MP takes minutes to encode and hundreds of megabytes to store (docs/engines.md).
 */
export const HD_PNG_MAX_PIXELS = 25_000_000;

/** High-quality JPEG: quality 92, no chroma subsampling. */
export const JPEG_QUALITY = 92;

/** The rows, in the order they are tried for an output's pixel count. */
export const HD_ENCODINGS = {
  /** PNG, zlib level 6 (sharp's default). */
  png: {
    format: 'png',
    extension: 'png',
    aliases: [],
    mimeType: 'image/png',
    encode: (pipeline) => pipeline.png({ compressionLevel: 6 }),
    writeDensity: pngDensity,
    maxPixels: HD_PNG_MAX_PIXELS,
    encodeSecondsPerPixel: 100e-9,
  },
  /**
   * Streamed: baseline JPEG without Huffman optimisation, since optimised coding needs a second
   * pass over every coefficient of the image, and so holds them all (1.6 GB for 16333×8167),
   * where the plain encoder streams (130 MB) for files about 6 % larger. mozjpeg's trellis
   * quantisation is off for speed. Optimised: sharp's default coding.
   */
  jpeg: {
    format: 'jpeg',
    extension: 'jpg',
    aliases: ['jpeg'],
    mimeType: 'image/jpeg',
    encode: (pipeline, mode) =>
      pipeline.jpeg({
        quality: JPEG_QUALITY,
        chromaSubsampling: '4:4:4',
        ...(mode === 'streamed' ? { mozjpeg: false, optimiseCoding: false } : {}),
      }),
    writeDensity: jpegDensity,
    maxPixels: Infinity,
    encodeSecondsPerPixel: 45e-9,
  },
  /** Print files (issue 26): TIFF, LZW or Deflate (tiffRow). */
  'tiff-lzw': tiffRow('lzw', 40e-9),
  'tiff-deflate': tiffRow('deflate', 60e-9),
} as const satisfies Record<string, HdEncodingRow>;

/**
 * A print row (issue 26): TIFF in strips, each strip coded as libvips computes it (streamed
 * whatever the mode), with the horizontal predictor (each sample stored as the difference to its
 * left neighbour, which LZW and Deflate compress far better on photographs), and the density in
 * XResolution/YResolution per inch. The rows differ only in compression, and so in speed.
 */
function tiffRow(compression: 'lzw' | 'deflate', encodeSecondsPerPixel: number) {
  return {
    format: 'tiff',
    extension: 'tif',
    aliases: ['tiff'],
    mimeType: 'image/tiff',
    encode: (pipeline: sharp.Sharp, _mode: EncodeMode, dotsPerInch?: number) =>
      pipeline.tiff(tiffOptions(compression, dotsPerInch)),
    maxPixels: 0,
    printOnly: true,
    encodeSecondsPerPixel,
  } as const satisfies HdEncodingRow;
}

/** sharp's TIFF options for a print row; xres/yres are in pixels per millimetre. */
function tiffOptions(compression: 'lzw' | 'deflate', dotsPerInch?: number): sharp.TiffOptions {
  const perMm =
    dotsPerInch === undefined ? {} : { xres: dotsPerInch / 25.4, yres: dotsPerInch / 25.4 };
  return { compression, predictor: 'horizontal', resolutionUnit: 'inch', ...perMm };
}

/** An output encoding: a row of HD_ENCODINGS. */
export type HdEncoding = keyof typeof HD_ENCODINGS;

/** The rows an HD image may be written in (the print rows left out). */
export type HdImageEncoding = {
  [K in HdEncoding]: (typeof HD_ENCODINGS)[K] extends { printOnly: true } ? never : K;
}[HdEncoding];

/** The rows a print file may be written in (issue 26). */
export type PrintEncoding = Exclude<HdEncoding, HdImageEncoding>;

const ALL_ROWS = Object.entries(HD_ENCODINGS) as [HdEncoding, HdEncodingRow][];
/** The HD images' rows, in the order they are tried. */
const ROWS = ALL_ROWS.filter(([, row]) => !row.printOnly) as [HdImageEncoding, HdEncodingRow][];

/** The encoding of an HD output of `pixels` pixels: the first row whose limit it is within. */
export function hdEncodingFor(pixels: number): HdImageEncoding {
  const found = ROWS.find(([, row]) => pixels <= row.maxPixels);
  if (!found) throw new RangeError(`No HD encoding for ${pixels} pixels`);
  return found[0];
}

/** The print row of a compression (issue 26). */
export function printEncodingFor(compression: 'lzw' | 'deflate'): PrintEncoding {
  return compression === 'lzw' ? 'tiff-lzw' : 'tiff-deflate';
}

/** A file format HD files are written in (several encodings may share one: 8- and 16-bit PNG). */
export type HdFormat = (typeof HD_ENCODINGS)[HdImageEncoding]['format'];

/** The HD format a file name's extension stands for (case-insensitive), if any. */
export function hdFormatOfName(name: string): HdFormat | undefined {
  const dot = name.lastIndexOf('.');
  const extension = dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
  const found = ROWS.find(
    ([, row]) => row.extension === extension || row.aliases.includes(extension),
  );
  return found?.[1].format as HdFormat | undefined;
}

/** The extensions HD files are written with, for messages (".png or .jpg"). */
export const HD_EXTENSIONS_TEXT = [...new Set(ROWS.map(([, row]) => `.${row.extension}`))].join(
  ' or ',
);

/** MIME types of the HD formats, by sniffed format. */
export const HD_TYPES_BY_FORMAT = Object.fromEntries(
  ROWS.map(([, row]) => [row.format, row.mimeType]),
) as Record<HdFormat, string>;

/** MIME types of the HD formats, by file extension (aliases included). */
export const HD_TYPES_BY_EXTENSION: Readonly<Record<string, string>> = Object.fromEntries(
  ROWS.flatMap(([, row]) => [row.extension, ...row.aliases].map((e) => [e, row.mimeType])),
);

/** MIME types of the print rows, by file extension (issue 26): what a print file is served as. */
export const PRINT_TYPES_BY_EXTENSION: Readonly<Record<string, string>> = Object.fromEntries(
  ALL_ROWS.filter(([, row]) => row.printOnly).flatMap(([, row]) =>
    [row.extension, ...row.aliases].map((e) => [e, row.mimeType]),
  ),
);
