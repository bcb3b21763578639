/**
 * The builtin upscaler's arithmetic, pure and synchronous: which ESRGAN model, how the LD image is
 * cut into tiles, how a tile's context is read beyond the image's edges, and how a seamless image
 * is extended before the final resample so that the result still tiles (docs/engines.md, HD).
 */
import {
  HD_EXTENSIONS_TEXT,
  hdFormatOfName,
  type HdFormat,
} from '../../../imaging/hd-encodings.js';

/** The ESRGAN-slim models used: ×2 and ×4 (the package also has ×3 and ×8). */
export type ModelScale = 2 | 4;

/**
 * Which ESRGAN network of UpscalerJS: `slim` (RDN with 2 dense blocks, the default) or `medium`
 * (10 dense blocks: sharper detail, about 2.6 times the work per pixel).
 */
export type EsrganVariant = 'slim' | 'medium';

/**
 * What runs the network in the workers: onnxruntime (the ONNX file the build converts from the
 * Keras model; the default, about twice as fast) or tfjs on WebAssembly (the Keras model as
 * shipped; the fallback where onnxruntime-node has no native library).
 */
export type EsrganRuntime = 'onnx' | 'tfjs';

/** How a tile's context is read beyond the image: around the torus, or mirrored at the edge. */
export type Padding = 'wrap' | 'mirror';

/**
 * Context read around every tile, in LD pixels. The network's receptive field is 10 LD pixels
 * (nine 3×3 or 5×5 convolutions at LD resolution, radii 1+1+1+1+1+2+1+1 = 9, and a 3×3 one at the
 * output resolution, at most one more): with at least that much context, the cropped tile is the
 * same as the whole image's inference, so tile borders leave no trace. Two more for safety.
 */
export const TILE_MARGIN = 12;

/**
 * The context each network needs: {@link TILE_MARGIN} for slim; medium's eight more 3×3
 * convolutions (radii summing to 18) need 20.
 */
export function tileMargin(variant: EsrganVariant): number {
  return variant === 'medium' ? 20 : TILE_MARGIN;
}

/**
 * Tile cores in LD pixels (a tile is its core plus the margin on each side, 320² here): about the
 * size that ran fastest per pixel on this machine, with each worker's WebAssembly heap at about
 * 300 MB (model.ts runs the network's last layers at the input resolution, which halves it).
 */
export const DEFAULT_TILE_CORE: Readonly<Record<ModelScale, number>> = { 2: 296, 4: 296 };

/**
 * Tile cores with onnxruntime (256² tiles with slim's margins): its memory grows faster than
 * linearly with the tile (about 480 MB for the whole process with 256² tiles on two workers
 * against 670 MB with 320²) for the same CPU time, the margins' extra work being small.
 */
export const ONNX_TILE_CORE = 232;

/**
 * The model for the factor from the LD image to the target: ×4 when the factor is 4 or more,
 * else ×2, so that the resample after the network is an enlargement (or a slight reduction
 * below ×2) and never throws away most of what the network made. Both cost about the same per
 * input pixel (the work is in the convolutions at LD resolution).
 */
export function modelScaleFor(factor: number): ModelScale {
  return factor >= 4 ? 4 : 2;
}

/**
 * How wide the detail the upscaler generates is (honest detail, issue 26): the LD width × the
 * network's scale, at most the target's (a ×4 output resampled down keeps only the target's
 * pixels). Without the network (`scale` 1: Lanczos alone) it is the LD's own width: everything
 * beyond it is enlargement.
 */
export function detailWidthFor(
  sourceWidth: number,
  targetWidth: number,
  scale: ModelScale | 1,
): number {
  return Math.min(sourceWidth * scale, targetWidth);
}

/** The largest ratio from the source size to the target size over both axes. */
export function upscaleFactor(
  source: { width: number; height: number },
  target: { width: number; height: number },
): number {
  return Math.max(target.width / source.width, target.height / source.height);
}

export interface Span {
  start: number;
  size: number;
}

/** `total` cut into the fewest parts of at most `maxPart`, as even as can be (sizes differ by 1). */
export function splitEvenly(total: number, maxPart: number): Span[] {
  if (total <= 0) return [];
  const count = Math.ceil(total / Math.max(1, maxPart));
  const base = Math.floor(total / count);
  const extra = total % count;
  const spans: Span[] = [];
  let start = 0;
  for (let k = 0; k < count; k++) {
    const size = base + (k < extra ? 1 : 0);
    spans.push({ start, size });
    start += size;
  }
  return spans;
}

/** A tile's core in LD pixels; the worker reads it with {@link TILE_MARGIN} of context. */
export interface Tile {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Tiles covering the image row by row, cores of at most `core`×`core`, evenly cut. */
export function tileGrid(width: number, height: number, core: number): Tile[] {
  const tiles: Tile[] = [];
  for (const row of splitEvenly(height, core)) {
    for (const column of splitEvenly(width, core)) {
      tiles.push({ x: column.start, y: row.start, width: column.size, height: row.size });
    }
  }
  return tiles;
}

/**
 * The tile core size, at most `maxCore` and not below 60 % of it, that finishes soonest on
 * `workers` workers: tiles run in rounds of one per worker, a round as long as its largest
 * tile (core plus margins), so 15 tiles on 2 workers waste half a round that 18 smaller ones
 * do not. Ties go to the larger core (fewer margins to compute).
 */
export function balancedTileCore(
  width: number,
  height: number,
  maxCore: number,
  workers: number,
  margin = TILE_MARGIN,
): number {
  let best = { core: maxCore, cost: Infinity };
  for (let core = maxCore; core >= Math.ceil(maxCore * 0.6); core -= 4) {
    const tiles = tileGrid(width, height, core);
    const largest = Math.max(
      ...tiles.map((tile) => (tile.width + 2 * margin) * (tile.height + 2 * margin)),
    );
    const cost = Math.ceil(tiles.length / Math.max(1, workers)) * largest;
    if (cost < best.cost * 0.99) best = { core, cost };
  }
  return best.core;
}

/**
 * The pixel read for index `i` (any integer) of a row or column of `n` pixels: around the torus
 * for 'wrap' (−1 is n − 1), mirrored at the edge for 'mirror' (−1 is 0, −2 is 1, n is n − 1).
 */
export function padIndex(i: number, n: number, padding: Padding): number {
  if (padding === 'wrap') return ((i % n) + n) % n;
  const period = 2 * n;
  const k = ((i % period) + period) % period;
  return k < n ? k : period - 1 - k;
}

/**
 * How far to extend a seamless image (by wrapping) along one axis before resizing it from `size`
 * to `target` pixels, and where to cut the result.
 *
 * libvips resizes a finite image: near its edges the kernel reads copies of the edge pixels, so a
 * resized tileable image no longer tiles. Extended by `pad` pixels of its own wrap-around on each
 * side, resized to `target + 2 × cut` and cut at `cut`, it does, provided the scale stays
 * target/size: `pad × target/size` must be (nearly) a whole number `cut`. The pad is the one in
 * [minPad, minPad + searchWidth) that makes it nearest; `error` (in output pixels) is how far from
 * whole it is, which shifts the wrap-around by at most about 3 × error pixels.
 */
export function wrapExtension(
  size: number,
  target: number,
  minPad = 3,
  searchWidth = 256,
): { pad: number; cut: number; error: number } {
  const scale = target / size;
  const last = Math.max(minPad, Math.min(size - 1, minPad + searchWidth - 1));
  let best = { pad: minPad, cut: Math.round(minPad * scale), error: Infinity };
  for (let pad = minPad; pad <= last; pad++) {
    const exact = pad * scale;
    const error = Math.abs(exact - Math.round(exact));
    if (error < best.error - 1e-12) best = { pad, cut: Math.round(exact), error };
    if (error < 1e-9) break;
  }
  return best;
}

/** The file format an output path's extension stands for (HD_ENCODINGS), or an Error. */
export function encodingFor(outputPath: string): HdFormat {
  const format = hdFormatOfName(outputPath);
  if (format) return format;
  throw new Error(
    `Builtin upscaler: cannot tell the encoding of ${outputPath} (${HD_EXTENSIONS_TEXT})`,
  );
}
