// HD sizes of SPEC §3: each physical size (in cm) is a pair of upscale factors.
import { formatByName, formatBySize, type OutputFormat, type OutputFormatName } from './formats.js';
import { toFiniteNumber, toHundredths } from './numbers.js';

/** The two factors that are the same for every size. */
export const HD_FIXED_FACTORS = { rescale_factor_cr711: 1.74, scale_by_latent707: 1 } as const;

export const HD_SIZES = [
  { label: '30x30', rescale_factor_cr701: 1.5, scale_by_image692: 1.4 },
  { label: '60x60', rescale_factor_cr701: 1.5, scale_by_image692: 2.7 },
  { label: '90x90', rescale_factor_cr701: 1.5, scale_by_image692: 4 },
  { label: '100x100', rescale_factor_cr701: 2.24, scale_by_image692: 3 },
  { label: '120x120', rescale_factor_cr701: 2.24, scale_by_image692: 3.6 },
  { label: '30x60', rescale_factor_cr701: 1.5, scale_by_image692: 1.9 },
  { label: '45x90', rescale_factor_cr701: 1.5, scale_by_image692: 2.85 },
  { label: '60x120', rescale_factor_cr701: 1.5, scale_by_image692: 3.77 },
  { label: '90x180', rescale_factor_cr701: 2.12, scale_by_image692: 4 },
  { label: '100x200', rescale_factor_cr701: 2.36, scale_by_image692: 4 },
  { label: '120x240', rescale_factor_cr701: 2.82, scale_by_image692: 4 },
  { label: '160x70', rescale_factor_cr701: 2.35, scale_by_image692: 3 },
  { label: '320x140', rescale_factor_cr701: 3.51, scale_by_image692: 4 },
  { label: '120x20', rescale_factor_cr701: 1.7, scale_by_image692: 2 },
] as const;

export type HdSize = (typeof HD_SIZES)[number];
export type HdSizeLabel = HdSize['label'];

/** All four factors sent with an HD command. */
export interface HdFactors {
  readonly rescale_factor_cr711: number;
  readonly scale_by_latent707: number;
  readonly rescale_factor_cr701: number;
  readonly scale_by_image692: number;
}

export const HD_SIZES_BY_FORMAT: Readonly<Record<OutputFormatName, readonly HdSizeLabel[]>> = {
  Square: ['30x30', '60x60', '90x90', '100x100', '120x120'],
  Rectangle: ['30x60', '45x90', '60x120', '90x180', '100x200', '120x240'],
  Slab: ['160x70', '320x140'],
  Plank: ['120x20'],
};

export function isHdSizeLabel(label: unknown): label is HdSizeLabel {
  return HD_SIZES.some((size) => size.label === label);
}

/** The HD sizes offered for a format; none for an unknown format. */
export function hdSizesForFormat(formatName: string | undefined): readonly HdSizeLabel[] {
  // Object.hasOwn keeps names such as 'constructor' from reaching the prototype.
  if (formatName === undefined || !Object.hasOwn(HD_SIZES_BY_FORMAT, formatName)) return [];
  return HD_SIZES_BY_FORMAT[formatName as OutputFormatName];
}

/** The HD sizes offered for an image, found through its (latent) size. */
export function hdSizesForImage(width: number, height: number): readonly HdSizeLabel[] {
  return hdSizesForFormat(formatBySize(width, height)?.name);
}

export function hdFactorsFor(label: string): HdFactors | undefined {
  const size = HD_SIZES.find((candidate) => candidate.label === label);
  if (!size) return undefined;
  return {
    ...HD_FIXED_FACTORS,
    rescale_factor_cr701: size.rescale_factor_cr701,
    scale_by_image692: size.scale_by_image692,
  };
}

/** The size whose factors match the metadata's, both rounded to 2 decimals; else undefined. */
export function sizeLabelFromFactors(metadata: Record<string, unknown>): HdSizeLabel | undefined {
  const cr701 = toFiniteNumber(metadata['rescale_factor_cr701']);
  const image692 = toFiniteNumber(metadata['scale_by_image692']);
  if (cr701 === undefined || image692 === undefined) return undefined;
  return HD_SIZES.find(
    (size) =>
      toHundredths(size.rescale_factor_cr701) === toHundredths(cr701) &&
      toHundredths(size.scale_by_image692) === toHundredths(image692),
  )?.label;
}

/** The HD image's pixel size: LD size x rescale_factor_cr701 x scale_by_image692, rounded. */
export function hdTargetSize(
  ldWidth: number,
  ldHeight: number,
  sizeLabel: HdSizeLabel,
): { width: number; height: number } {
  const size = HD_SIZES.find((candidate) => candidate.label === sizeLabel);
  if (!size) throw new RangeError(`Unknown HD size: ${String(sizeLabel)}`);
  // Multiplied left to right as the spec writes it, so both sides round identically.
  const scaled = (side: number) =>
    Math.round(side * size.rescale_factor_cr701 * size.scale_by_image692);
  return { width: scaled(ldWidth), height: scaled(ldHeight) };
}

/**
 * The LD format an HD size is made from. An HD image keeps its source's shape (both sides are
 * scaled alike), so this gives an HD image's aspect from its size alone.
 */
export function formatOfHdSize(label: HdSizeLabel): OutputFormat | undefined {
  const entry = Object.entries(HD_SIZES_BY_FORMAT).find(([, labels]) => labels.includes(label));
  return entry && formatByName(entry[0]);
}

/** How large an HD image prints: its sides in centimetres and the density that makes them. */
export interface HdPrintSize {
  widthCm: number;
  heightCm: number;
  /** Pixels per centimetre along the width (both axes share it: square pixels). */
  pixelsPerCm: number;
  /** The same density in dots (pixels) per inch. */
  dotsPerInch: number;
}

/**
 * The printed size of an HD image of `widthPx`×`heightPx` ordered at `sizeLabel`: the label's two
 * centimetre figures go to the sides they measure (the larger to the longer side: the labels
 * are written height × width for some formats, width × height for others), and the density is
 * width ÷ centimetres. 2150 px over 30 cm is 71.7 px/cm, 182 dpi.
 */
export function hdPrintSize(
  sizeLabel: HdSizeLabel,
  widthPx: number,
  heightPx: number,
): HdPrintSize {
  const [a = 0, b = 0] = sizeLabel.split('x').map(Number);
  const [longer, shorter] = a >= b ? [a, b] : [b, a];
  const widthCm = widthPx >= heightPx ? longer : shorter;
  const heightCm = widthPx >= heightPx ? shorter : longer;
  const pixelsPerCm = widthPx / widthCm;
  return { widthCm, heightCm, pixelsPerCm, dotsPerInch: pixelsPerCm * 2.54 };
}

/**
 * The pixel size of an HD image ordered at `sizeLabel`: HD sizes are offered for the output
 * formats only, so it follows from the format's LD size.
 */
export function hdPixelSize(sizeLabel: HdSizeLabel): { width: number; height: number } | undefined {
  const format = formatOfHdSize(sizeLabel);
  return format && hdTargetSize(format.width, format.height, sizeLabel);
}
