/**
 * A measure of directional striping in an enlargement (issue 17, part 1): how much more the
 * residual against a plain Lanczos enlargement of the same source varies from row to row than
 * from column to column. On an isotropic texture an upscaler that treats both directions alike
 * gives a ratio near 1; horizontal stripes (rows brighter or darker as a whole, e.g. once per
 * source pixel) raise it, vertical ones lower it.
 */
import sharp from 'sharp';

/** 8-bit pixels with any number of channels (the first three are used), row by row. */
export interface StripingPixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

export interface Striping {
  /** Variance of the residual's row means (each row averaged over its columns and colours). */
  rowEnergy: number;
  /** Variance of the residual's column means. */
  columnEnergy: number;
  /** rowEnergy ÷ columnEnergy: 1 for no preferred direction, > 1 for horizontal stripes. */
  ratio: number;
}

/**
 * The striping of `image` against `reference` (same size): the residual image − reference is
 * averaged along each row and along each column, and the two profiles' variances are compared.
 * Averaging along a line keeps what is constant along it (a stripe) and averages the texture's
 * own detail away equally in both directions.
 */
export function striping(image: StripingPixels, reference: StripingPixels): Striping {
  const { width, height } = image;
  if (reference.width !== width || reference.height !== height) {
    throw new Error(
      `striping: sizes differ (${width}x${height} against ${reference.width}x${reference.height})`,
    );
  }
  const colours = Math.min(3, image.channels, reference.channels);
  const rows = new Float64Array(height);
  const columns = new Float64Array(width);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * image.channels;
      const q = (y * width + x) * reference.channels;
      let residual = 0;
      for (let c = 0; c < colours; c++)
        residual += (image.data[p + c] ?? 0) - (reference.data[q + c] ?? 0);
      rows[y] = (rows[y] ?? 0) + residual;
      columns[x] = (columns[x] ?? 0) + residual;
    }
  }
  const rowEnergy = variance(rows.map((sum) => sum / (width * colours)));
  const columnEnergy = variance(columns.map((sum) => sum / (height * colours)));
  return { rowEnergy, columnEnergy, ratio: rowEnergy / columnEnergy };
}

/**
 * The striping of an enlarged file against sharp's Lanczos enlargement of its source to the same
 * size (both decoded as sRGB without alpha).
 */
export async function stripingAgainstLanczos(
  sourcePath: string,
  enlargedPath: string,
): Promise<Striping> {
  const enlarged = await rgbPixels(sharp(enlargedPath));
  const reference = await rgbPixels(
    sharp(sourcePath).resize(enlarged.width, enlarged.height, { fit: 'fill', kernel: 'lanczos3' }),
  );
  return striping(enlarged, reference);
}

async function rgbPixels(pipeline: sharp.Sharp): Promise<StripingPixels> {
  const { data, info } = await pipeline
    .toColourspace('srgb')
    .removeAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

function variance(values: Float64Array): number {
  let mean = 0;
  for (const v of values) mean += v;
  mean /= values.length;
  let sum = 0;
  for (const v of values) sum += (v - mean) ** 2;
  return sum / values.length;
}
