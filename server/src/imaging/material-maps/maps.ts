// PBR material maps from one picture (issue 17, part 5): the maths, strip by strip. A strip is
// a run of output rows read together with `margin` rows above and below, so every filter sees
// the neighbours it needs and the whole image is never held at once.
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index below is in bounds by construction (sizes are
 * checked on entry), and `noUncheckedIndexedAccess` would otherwise type each read as possibly
 * undefined. `!` costs nothing at run time, unlike a `?? 0` fallback in the inner loops. */
import { MATERIAL_MAPS, type MaterialMap } from '@tessera/contract';
import { edgeIndex, marginRows, type MapSettings } from './map-settings.js';

/** The maps a material is made of, in the order they are written. */
export const MATERIAL_MAP_NAMES = MATERIAL_MAPS;
export type MaterialMapName = MaterialMap;

/** The sample layout of each map's PNG: channels and bits per channel. */
export const MAP_FORMATS: Readonly<Record<MaterialMapName, { channels: 1 | 3; bitDepth: 8 | 16 }>> =
  {
    // 16 bits: a displacement from 8-bit steps shows terraces.
    height: { channels: 1, bitDepth: 16 },
    'normal-opengl': { channels: 3, bitDepth: 8 },
    'normal-directx': { channels: 3, bitDepth: 8 },
    roughness: { channels: 1, bitDepth: 8 },
    'ambient-occlusion': { channels: 1, bitDepth: 8 },
  };

/** Bytes of one row of a map. */
export function mapRowBytes(map: MaterialMapName, width: number): number {
  const { channels, bitDepth } = MAP_FORMATS[map];
  return (width * channels * bitDepth) / 8;
}

/** One output row of every map. */
export type MapRows = Record<MaterialMapName, Uint8Array>;

/**
 * Working arrays of one strip, allocated once for the largest strip and reused: four float
 * planes of (strip + 2 × margin) rows, never the image.
 */
export class StripWorkspace {
  readonly luminance: Float32Array;
  readonly heightField: Float32Array;
  private readonly scratch: Float32Array;
  private readonly blurred: Float32Array;
  /** Column indices for x − 1 … x + 1 and for the box window's ends, by edge mode. */
  private readonly left: Int32Array;
  private readonly right: Int32Array;
  readonly rows: number;

  constructor(
    private readonly settings: MapSettings,
    maxStripRows: number,
  ) {
    const { width, edges } = settings;
    this.rows = maxStripRows + 2 * marginRows(settings);
    const size = this.rows * width;
    this.luminance = new Float32Array(size);
    this.heightField = new Float32Array(size);
    this.scratch = new Float32Array(size);
    this.blurred = new Float32Array(size);
    this.left = new Int32Array(width);
    this.right = new Int32Array(width);
    for (let x = 0; x < width; x++) {
      this.left[x] = edgeIndex(x - 1, width, edges);
      this.right[x] = edgeIndex(x + 1, width, edges);
    }
  }

  /**
   * Computes the maps of `outputRows` rows from `window`: the luminance (0–255, one byte a pixel)
   * of those rows with `margin` rows above and below, already taken across the image's edges by
   * the edge mode. Calls `emit` once per output row, top to bottom; the row buffers are reused.
   */
  process(
    window: Uint8Array,
    outputRows: number,
    emit: (rows: MapRows) => void,
    out: MapRows = allocateRows(this.settings.width),
  ): void {
    const { width, occlusionRadius, occlusionStrength, invertHeight } = this.settings;
    const { low, high } = this.settings.roughness;
    // Inverted, the height is 1 − the smoothed luminance h: its slopes are −h's and a crevice
    // of it (below its blur) is a crest of h. Computed from h so that the roughness, which
    // reads brightness and not relief, stays as it is; and at 1, not inverted, no value changes.
    const relief = invertHeight ? -1 : 1;
    const normalStrength = relief * this.settings.normalStrength;
    const margin = marginRows(this.settings);
    const rows = outputRows + 2 * margin;
    if (window.length !== rows * width) throw new Error('Strip window of the wrong size');
    if (rows > this.rows) throw new Error('Strip larger than the workspace');
    const { luminance: lum, heightField: h, left, right } = this;

    for (let i = 0; i < rows * width; i++) lum[i] = window[i]! / 255;

    // Height: luminance smoothed by a 3×3 binomial kernel, which keeps sensor-like noise out
    // of the normals. Rows outside the window (its first and last) are never read by outputs.
    for (let y = 1; y < rows - 1; y++) {
      const up = (y - 1) * width;
      const mid = y * width;
      const down = (y + 1) * width;
      for (let x = 0; x < width; x++) {
        const l = left[x]!;
        const r = right[x]!;
        const top = lum[up + l]! + 2 * lum[up + x]! + lum[up + r]!;
        const centre = lum[mid + l]! + 2 * lum[mid + x]! + lum[mid + r]!;
        const bottom = lum[down + l]! + 2 * lum[down + x]! + lum[down + r]!;
        h[mid + x] = (top + 2 * centre + bottom) / 16;
      }
    }

    // A wide blur of the height (two box passes ≈ Gaussian) for the occlusion: a pixel below
    // its surroundings is in a crevice.
    this.boxBlur(h, this.blurred, 1, rows - 1, occlusionRadius);
    this.boxBlur(
      this.blurred,
      this.blurred,
      1 + occlusionRadius,
      rows - 1 - occlusionRadius,
      occlusionRadius,
    );

    for (let o = 0; o < outputRows; o++) {
      const y = margin + o;
      const up = (y - 1) * width;
      const mid = y * width;
      const down = (y + 1) * width;
      const heightRow = out.height;
      const gl = out['normal-opengl'];
      const dx = out['normal-directx'];
      const rough = out.roughness;
      const ao = out['ambient-occlusion'];
      for (let x = 0; x < width; x++) {
        const l = left[x]!;
        const r = right[x]!;
        // Sobel: the slope per pixel, x to the right and y down the image.
        const gx =
          (h[up + r]! +
            2 * h[mid + r]! +
            h[down + r]! -
            h[up + l]! -
            2 * h[mid + l]! -
            h[down + l]!) /
          8;
        const gy =
          (h[down + l]! +
            2 * h[down + x]! +
            h[down + r]! -
            h[up + l]! -
            2 * h[up + x]! -
            h[up + r]!) /
          8;
        const [nx, nyGl, nz] = normalFromSlope(gx, gy, normalStrength);
        gl[3 * x] = unitToByte(nx);
        gl[3 * x + 1] = unitToByte(nyGl);
        gl[3 * x + 2] = unitToByte(nz);
        dx[3 * x] = gl[3 * x]!;
        // DirectX's green points down the image: the same normal, y mirrored.
        dx[3 * x + 1] = unitToByte(-nyGl);
        dx[3 * x + 2] = gl[3 * x + 2]!;

        const height = h[mid + x]!;
        // 65535 − level rather than a rounding of 1 − h: the inverted map is the exact complement.
        const level = invertHeight
          ? 65535 - Math.round(height * 65535)
          : Math.round(height * 65535);
        heightRow[2 * x] = level >> 8;
        heightRow[2 * x + 1] = level & 0xff;

        // Roughness: dark and detailed parts are rough, bright smooth parts shine; the finish
        // (polished, matte, ...) puts the whole map in its range (imaging/finishes.ts).
        const a = lum[up + l]!,
          b = lum[up + x]!,
          c = lum[up + r]!;
        const d = lum[mid + l]!,
          e = lum[mid + x]!,
          f = lum[mid + r]!;
        const g = lum[down + l]!,
          k = lum[down + x]!,
          m = lum[down + r]!;
        const sum = a + b + c + d + e + f + g + k + m;
        const squares = a * a + b * b + c * c + d * d + e * e + f * f + g * g + k * k + m * m;
        const mean = sum / 9;
        const deviation = Math.sqrt(Math.max(0, squares / 9 - mean * mean));
        const plain = clamp01(0.3 + 0.45 * (1 - height) + 2.5 * deviation);
        rough[x] = Math.round(255 * (low + (high - low) * plain));

        const cavity = Math.max(0, relief * (this.blurred[mid + x]! - height));
        ao[x] = Math.round(255 * clamp01(1 - occlusionStrength * cavity));
      }
      emit(out);
    }
  }

  /**
   * Box blur of radius `radius` of rows [from, to) of `source` into `target` (which may be
   * `source`): horizontally with the edge mode, then vertically within the window. Running
   * sums: the cost does not grow with the radius.
   */
  private boxBlur(
    source: Float32Array,
    target: Float32Array,
    from: number,
    to: number,
    radius: number,
  ): void {
    const { width, edges } = this.settings;
    const scratch = this.scratch;
    const span = 2 * radius + 1;
    for (let y = from; y < to; y++) {
      const row = y * width;
      let sum = 0;
      for (let k = -radius; k <= radius; k++) sum += source[row + edgeIndex(k, width, edges)]!;
      for (let x = 0; x < width; x++) {
        scratch[row + x] = sum / span;
        sum +=
          source[row + edgeIndex(x + radius + 1, width, edges)]! -
          source[row + edgeIndex(x - radius, width, edges)]!;
      }
    }
    // Vertical: rows [from + radius, to − radius) have their whole window inside [from, to).
    const first = from + radius;
    const last = to - radius;
    if (last <= first) return;
    const sums = new Float64Array(width);
    for (let k = first - radius; k <= first + radius; k++) {
      const row = k * width;
      for (let x = 0; x < width; x++) sums[x]! += scratch[row + x]!;
    }
    for (let y = first; y < last; y++) {
      const row = y * width;
      for (let x = 0; x < width; x++) target[row + x] = sums[x]! / span;
      if (y + 1 < last) {
        const add = (y + radius + 1) * width;
        const drop = (y - radius) * width;
        for (let x = 0; x < width; x++) sums[x]! += scratch[add + x]! - scratch[drop + x]!;
      }
    }
  }
}

/** Row buffers for every map of an image this wide. */
export function allocateRows(width: number): MapRows {
  const rows = {} as MapRows;
  for (const map of MATERIAL_MAP_NAMES) rows[map] = new Uint8Array(mapRowBytes(map, width));
  return rows;
}

/**
 * The unit normal of a surface whose height rises by `gx` per pixel to the right and `gy` per
 * pixel down the image, in the OpenGL convention (x right, y up the image, z out of it).
 */
export function normalFromSlope(
  gx: number,
  gy: number,
  strength: number,
): [x: number, y: number, z: number] {
  const x = -strength * gx;
  // Up the image is −y: the height's slope upwards is −gy, and the normal leans against it.
  const y = strength * gy;
  const length = Math.hypot(x, y, 1);
  return [x / length, y / length, 1 / length];
}

/** A normal component in [−1, 1] as the byte a normal map stores. */
export function unitToByte(value: number): number {
  return Math.round((value * 0.5 + 0.5) * 255);
}

function clamp01(value: number): number {
  return value < 0 ? 0 : value > 1 ? 1 : value;
}
