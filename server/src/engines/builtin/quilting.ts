/**
 * Exemplar-based texture synthesis by image quilting (Efros & Freeman, SIGGRAPH 2001) with
 * minimum-error boundary cuts, seeded, optionally on a torus so that the result tiles.
 *
 * Pure and synchronous (no Node APIs): the builtin engine runs it in a worker thread, after
 * decoding and resizing the reference to {@link workingSize} with sharp. How each parameter
 * acts is documented in docs/engines.md; keep the two in step.
 *
 * Outline: the output is covered by a grid of square patches that overlap their neighbours by
 * a quarter of their side. Patches are placed row by row. For each one, candidate source
 * positions in the reference (a seeded random sample, the positions that continue the already
 * placed neighbours, positions near where the layout term wants the patch) are scored by the
 * squared colour difference over the overlap plus the layout term (on a sparse sample of the
 * overlap first, pruned early), the best few are refined by a local pattern search, and one is
 * drawn among the best distinct ones, scored on the whole overlap, with a temperature. The
 * chosen patch is pasted behind minimum-error boundary cuts (dynamic programming over the
 * per-pixel overlap error) on each side where it overlaps existing pixels, combined at the
 * corners (a pixel is new only if every cut says so) and feathered over 3×3 pixels.
 *
 * Seamless: the grid is laid on a torus. The last column overlaps and cuts against the first,
 * the last row against the first (those closing patches are searched harder), so the
 * wrap-around is made of ordinary cuts. A torus has no edge, so the result is then framed
 * (rolled) to start at its smoothest column and row.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index below is in bounds by construction (sizes are
 * checked on entry), and `noUncheckedIndexedAccess` would otherwise type each read as possibly
 * undefined. `!` costs nothing at run time, unlike a `?? 0` fallback in the inner loops. */
import type { PreviewSettings } from '@tessera/contract';
import { mulberry32 } from './prng.js';
import { paste } from './quilting/assembly.js';
import { cutMask } from './quilting/boundary-cut.js';
import { createCanvas, PatchWindow } from './quilting/canvas.js';
import { fitLighting, lightingAt, removeLighting } from './quilting/lighting.js';
import { MASK_ALPHA_THRESHOLD } from '../engine.js';
import type { RawImage } from '../../imaging/raw-image.js';
import { maskRegion } from './quilting/mask-region.js';
import {
  clamp,
  clampInt,
  colourVariance,
  gradientEnergy,
  luma,
  luminanceGradient,
} from './quilting/numeric.js';
import { Overlap, overlapError } from './quilting/overlap.js';
import { PatchSearch, type SearchSpace } from './quilting/patch-search.js';
import { poissonBlend } from './quilting/poisson.js';
import {
  clearCore,
  restoreWindow,
  saveWindow,
  windowCutCost,
  type WindowState,
} from './quilting/resynthesis.js';
import { frameTorus, gridPositions, torusDelta } from './quilting/torus.js';

export { MASK_ALPHA_THRESHOLD };

/**
 * The preview settings the builtin engine reads (it has no text model, so no prompts):
 * - width, height: the output size in pixels;
 * - seed: same reference, options and seed give identical pixels;
 * - seamless: synthesize on a torus, so the output tiles with no visible seam both ways;
 * - mask: copy only from where the reference's alpha is at least 128 (when it has such a region);
 * - similarity (0..1): how closely the layout follows the reference (0 free rearrangement);
 * - imaginationWeight (0..20): variation: temperature of the choice among good candidates, and how
 *   often a new piece is joined in where the neighbour's copy could simply go on (0: the best);
 * - promptAdherence (0..2): patch size, i.e. how large the reference's structures copied intact are;
 * - style (0..1): stylisation strength (saturated, contrasted, posterised colours).
 */
export type SynthesisOptions = Omit<PreviewSettings, 'positivePrompt' | 'negativePrompt'>;

/** The references' short side is enlarged to at least this many pixels. */
export const MIN_WORKING_SIDE = 64;

/**
 * The size the caller resizes the reference to before {@link synthesize}: the reference scaled
 * down (never up) to about the output's area, so a patch carries texture features at the scale
 * the output shows them and the search stays fast whatever the upload size; a tiny reference is
 * enlarged to {@link MIN_WORKING_SIDE} on its short side.
 */
export function workingSize(
  referenceWidth: number,
  referenceHeight: number,
  outputWidth: number,
  outputHeight: number,
): { width: number; height: number } {
  let scale = Math.min(
    1,
    Math.sqrt((outputWidth * outputHeight) / (referenceWidth * referenceHeight)),
  );
  const shortSide = Math.min(referenceWidth, referenceHeight);
  if (shortSide * scale < MIN_WORKING_SIDE) scale = MIN_WORKING_SIDE / shortSide;
  return {
    width: Math.max(1, Math.round(referenceWidth * scale)),
    height: Math.max(1, Math.round(referenceHeight * scale)),
  };
}

/** The patch side for a working reference and output (promptAdherence scales it 0.4×..1.8×). */
export function patchSize(
  reference: { width: number; height: number },
  options: Pick<SynthesisOptions, 'width' | 'height' | 'seamless' | 'promptAdherence'>,
): number {
  const base = clamp(Math.min(reference.width, reference.height) / 5, 24, 160);
  const factor = 0.4 + 0.7 * clamp(options.promptAdherence, 0, 2);
  let side = Math.round(base * factor);
  side = Math.min(side, reference.width, reference.height);
  const outSide = Math.min(options.width, options.height);
  side = Math.min(side, options.seamless ? Math.floor(outSide / 2) : outSide);
  return Math.max(2, side);
}

/**
 * The style pass, applied to the reference before synthesis: colours pushed towards a flat,
 * painted look (saturation up to ×1.8, contrast up to ×1.5 around the mean luminance, channels
 * posterised from 256 levels down to 6), all scaled by `style`. Per pixel, so nothing bleeds
 * across the mask's edge. Alpha is kept.
 */
export function stylise(image: RawImage, style: number): RawImage {
  const s = clamp(style, 0, 1);
  if (!(s > 0)) return image;
  const { data, width, height } = image;
  const n = width * height;
  let sumY = 0;
  for (let p = 0; p < n * 4; p += 4) sumY += luma(data[p]!, data[p + 1]!, data[p + 2]!);
  const meanY = n > 0 ? sumY / n : 128;
  const saturation = 1 + 0.8 * s;
  const contrast = 1 + 0.5 * s;
  const levels = posterLevels(s);
  const step = 255 / (levels - 1);
  const out = new Uint8Array(data.length);
  const tone = (c: number, y: number): number => {
    const v = clamp(meanY + (y + (c - y) * saturation - meanY) * contrast, 0, 255);
    return Math.round(Math.round(v / step) * step);
  };
  for (let p = 0; p < n * 4; p += 4) {
    const r = data[p]!;
    const g = data[p + 1]!;
    const b = data[p + 2]!;
    const y = luma(r, g, b);
    out[p] = tone(r, y);
    out[p + 1] = tone(g, y);
    out[p + 2] = tone(b, y);
    out[p + 3] = data[p + 3]!;
  }
  return { data: out, width, height };
}

/** Random candidates drawn per patch (besides the coherent and layout ones): bounds. */
const MIN_RANDOM = 256;
const MAX_RANDOM = 1536;
/**
 * Weight of the structure (squared luminance-gradient difference) against the squared RGB
 * difference in the overlap cost and the cuts: a line in the overlap must be matched by a line.
 */
const STRUCTURE_WEIGHT = 3;
/** Share of the patches searched again after the first pass, the worst first. */
const REDO_SHARE = 0.15;
/** Only patches whose cuts cost more than this × the reference's own gradient energy. */
const REDO_ABOVE = 1.2;

/**
 * Synthesizes `options.width × options.height` RGBA pixels (alpha 255) from `reference`.
 * `onProgress` receives the fraction of patches placed, rising from 0 to 1.
 *
 * The steps, each in its own module under `quilting/`: the patch grid on a plane or a torus
 * (torus.ts), the overlap with what is already placed (overlap.ts), the patch search
 * (patch-search.ts), the minimum-error boundary cuts (boundary-cut.ts), pasting (assembly.ts),
 * and the framing of a seamless result (torus.ts).
 */
export function synthesize(
  reference: RawImage,
  options: SynthesisOptions,
  onProgress?: (fraction: number) => void,
): RawImage {
  return synthesizeTraced(reference, options, onProgress).image;
}

/** A synthesized image and, per pixel, the reference pixel (y · Wr + x) it was copied from. */
export interface TracedSynthesis {
  image: RawImage;
  source: Int32Array;
}

/** How the joins are made; the default is the product's, the other serves as a measured baseline. */
export interface SeamHandling {
  /**
   * true (default): lighting drift taken out before and put back after, structure-aware
   * overlap cost, the worst cuts re-synthesised, Poisson blending. false: the plain quilting of
   * Efros & Freeman with colour-only cuts feathered over 3×3 pixels (the baseline of the seam
   * benchmark).
   */
  repair: boolean;
}

/** {@link synthesize}, also returning where each pixel came from (for the seam measurements). */
export function synthesizeTraced(
  reference: RawImage,
  options: SynthesisOptions,
  onProgress?: (fraction: number) => void,
  seams: SeamHandling = { repair: true },
): TracedSynthesis {
  const W = checkSide(options.width, 'width');
  const H = checkSide(options.height, 'height');
  const Wr = checkSide(reference.width, 'reference width');
  const Hr = checkSide(reference.height, 'reference height');
  if (reference.data.length < Wr * Hr * 4) throw new Error('reference data is not RGBA');
  const seamless = options.seamless;
  const similarity = param(options.similarity, 0, 1, 1);
  const imagination = param(options.imaginationWeight, 0, 20, 3.5);
  const adherence = param(options.promptAdherence, 0, 2, 0.9);
  const style = param(options.style, 0, 1, 0);
  const rng = mulberry32(options.seed);

  // Lighting drift out (put back at the end), over the part that patches are copied from.
  const repair = seams.repair;
  const lighting = repair ? fitLighting(reference, options.mask) : undefined;
  const ref = stylise(lighting ? removeLighting(reference, lighting) : reference, style).data;

  // Patch size, and where patches may be copied from (the mask).
  let P = patchSize(reference, { width: W, height: H, seamless, promptAdherence: adherence });
  let region = options.mask ? maskRegion(reference, P) : undefined;
  while (region && region.count === 0 && P > 8) {
    P = Math.max(8, Math.floor(P * 0.75));
    region = maskRegion(reference, P);
  }
  if (region && (region.count === 0 || region.count === region.total)) region = undefined;
  const O = Math.max(1, Math.round(P / 4));
  const S = P - O;
  const nvx = Wr - P + 1;
  const nvy = Hr - P + 1;
  const refGrad = luminanceGradient(ref, Wr, Hr);
  const structureWeight = repair ? STRUCTURE_WEIGHT : 0;
  const space: SearchSpace = {
    ref,
    grad: refGrad,
    structureWeight,
    Wr,
    nvx,
    nvy,
    allowed: region?.allowed,
    validList: region?.list,
    randomCandidates: clampInt(
      2 * Math.sqrt(region ? region.count : nvx * nvy),
      MIN_RANDOM,
      MAX_RANDOM,
    ),
  };

  // The grid of patch positions (on the torus when seamless: x wraps modulo W).
  const xs = gridPositions(W, P, S, seamless);
  const ys = gridPositions(H, P, S, seamless);
  const nx = xs.length;
  const ny = ys.length;

  // Cost scales. Layout: a patch may sit up to `slack` pixels from where the reference's layout
  // puts it (a quarter patch at similarity 1, growing to half the reference as similarity falls)
  // and beyond that pays, quadratically, the colour variance per patch side; nothing at 0.
  // Imagination: the temperature of the draw, in units of the reference's gradient energy (the
  // error of a patch shifted by one pixel), so that it means the same on smooth and rough
  // textures.
  const variance = Math.max(25, colourVariance(ref, Wr * Hr));
  const pull = similarity > 0 ? (4 * variance) / (P * P) : 0;
  const slack = Math.floor(P / 4 + ((1 - similarity) * Math.max(Wr, Hr)) / 2);
  const temperature = 0.04 * imagination * Math.max(1, gradientEnergy(ref, Wr, Hr));
  const breakAwayChance = 0.5 * (imagination / 20) ** 2;
  const offX = rng.int(nvx);
  const offY = rng.int(nvy);

  const canvas = createCanvas(W, H, seamless);
  const srcX = new Int32Array(nx * ny).fill(-1);
  const srcY = new Int32Array(nx * ny).fill(-1);

  // Per-patch scratch.
  const window = new PatchWindow(P);
  const overlap = new Overlap(P, Wr);
  const search = new PatchSearch(space, P, rng);
  const err = new Float64Array(P * P);
  const take = new Uint8Array(P * P);

  /**
   * Places the patch of grid cell (i, j): searches its source, cuts it against what is there
   * and pastes it. `again`: a re-synthesis, the patch held on all four sides by the `O`-wide
   * frame of its window (its core was cleared).
   */
  const place = (i: number, j: number, again: boolean): void => {
    const x0 = xs[i]!;
    const y0 = ys[j]!;
    window.moveTo(canvas, x0, y0);
    if (again) clearCore(canvas, window, O);
    overlap.gather(canvas, window);

    // Patches closing the torus are held on three or four sides: they are searched harder and
    // the layout term holds them less (the reference's far side rarely fits there).
    const closing = seamless && (i === nx - 1 || j === ny - 1);

    // Source positions that would continue the copies of the placed neighbours.
    const coherent: number[] = [];
    for (let dj = -1; dj <= 1; dj++) {
      for (let di = -1; di <= 1; di++) {
        if (di === 0 && dj === 0) continue;
        let ni = i + di;
        let nj = j + dj;
        if (seamless) {
          ni = (ni + nx) % nx;
          nj = (nj + ny) % ny;
        }
        if (ni < 0 || nj < 0 || ni >= nx || nj >= ny) continue;
        const n = nj * nx + ni;
        if (srcX[n]! < 0) continue;
        const ddx = seamless ? torusDelta(x0 - xs[ni]!, W) : x0 - xs[ni]!;
        const ddy = seamless ? torusDelta(y0 - ys[nj]!, H) : y0 - ys[nj]!;
        coherent.push(srcX[n]! + ddx, srcY[n]! + ddy);
      }
    }

    // Where the layout term wants this patch: the reference, shifted by a seeded offset and
    // repeated (every W − P + 1 pixels, so that every patch position is a valid one), laid
    // under the output.
    const chosen = search.choose({
      overlap,
      tx: (x0 + offX) % nvx,
      ty: (y0 + offY) % nvy,
      slack,
      pull: closing ? pull * 0.1 : pull,
      nearLayout: similarity > 0,
      coherent,
      closing,
      temperature,
      breakAwayChance,
    });
    const sx = chosen.x;
    const sy = chosen.y;
    srcX[j * nx + i] = sx;
    srcY[j * nx + i] = sy;

    // Minimum-error boundary cuts on each overlapping side, combined, then the paste.
    overlapError(err, ref, refGrad, structureWeight, Wr, sx, sy, canvas, window);
    cutMask(
      take,
      err,
      again
        ? { left: O, top: O, right: O, bottom: O }
        : {
            left: i > 0 ? xs[i - 1]! + P - x0 : 0,
            top: j > 0 ? ys[j - 1]! + P - y0 : 0,
            right: seamless && i === nx - 1 && nx > 1 ? x0 + P - W : 0,
            bottom: seamless && j === ny - 1 && ny > 1 ? y0 + P - H : 0,
          },
      canvas,
      window,
    );
    paste(canvas, window, take, ref, refGrad, Wr, sx, sy);
  };

  // The work: every patch once, then (when repairing) the worst share again.
  const redoCount = repair && nx * ny > 1 ? Math.ceil(REDO_SHARE * nx * ny) : 0;
  const total = nx * ny + redoCount;
  let placed = 0;
  onProgress?.(0);
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      place(i, j, false);
      placed++;
      onProgress?.(placed / total);
    }
  }

  if (redoCount > 0) {
    // The patches whose cuts cost most per cut pair, against the reference's own gradient
    // energy (summed over channels), worst first; only those clearly worse than the texture.
    const insideEnergy = 3 * Math.max(1, gradientEnergy(ref, Wr, Hr));
    const ranked: { cell: number; cost: number }[] = [];
    for (let cell = 0; cell < nx * ny; cell++) {
      window.moveTo(canvas, xs[cell % nx]!, ys[Math.floor(cell / nx)]!);
      const { sum, pairs } = windowCutCost(canvas, window, Wr);
      ranked.push({ cell, cost: pairs > 0 ? sum / pairs / insideEnergy : 0 });
    }
    ranked.sort((a, b) => b.cost - a.cost || a.cell - b.cell);
    let saved: WindowState | undefined;
    for (let k = 0; k < redoCount; k++) {
      const entry = ranked[k]!;
      if (entry.cost > REDO_ABOVE) {
        const i = entry.cell % nx;
        const j = Math.floor(entry.cell / nx);
        window.moveTo(canvas, xs[i]!, ys[j]!);
        const before = windowCutCost(canvas, window, Wr).sum;
        saved = saveWindow(canvas, window, saved);
        const [keptX, keptY] = [srcX[entry.cell]!, srcY[entry.cell]!];
        place(i, j, true);
        if (windowCutCost(canvas, window, Wr).sum >= before) {
          restoreWindow(canvas, window, saved);
          srcX[entry.cell] = keptX;
          srcY[entry.cell] = keptY;
        }
      }
      placed++;
      onProgress?.(placed / total);
    }
  }

  if (repair) {
    const blended = poissonBlend({
      ref,
      Wr,
      Hr,
      source: canvas.source,
      W,
      H,
      seamless,
      reach: Math.max(4, P / 2),
    });
    writeBack(canvas.data, blended, W, H, seamless ? undefined : lighting, style);
  }
  if (!seamless)
    return { image: { data: canvas.data, width: W, height: H }, source: canvas.source };
  const framed = frameTorus(canvas.data, canvas.source, W, H);
  return { image: { data: framed.data, width: W, height: H }, source: framed.source };
}

/**
 * The blended colours into `data` (RGBA), with the lighting drift put back, stretched over the
 * output (a seamless result gets none: a drift cannot tile), and re-posterised when stylised.
 */
function writeBack(
  data: Uint8Array,
  channels: Float32Array[],
  W: number,
  H: number,
  lighting: ReturnType<typeof fitLighting> | undefined,
  style: number,
): void {
  const step = style > 0 ? 255 / (posterLevels(style) - 1) : 0;
  for (let c = 0; c < 3; c++) {
    const values = channels[c]!;
    for (let y = 0, i = 0; y < H; y++) {
      for (let x = 0; x < W; x++, i++) {
        let v = values[i]! + (lighting ? lightingAt(lighting, c, x, y, W, H) : 0);
        if (step > 0) v = Math.round(v / step) * step;
        data[i * 4 + c] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
      }
    }
  }
}

/** Posterisation levels per channel at style strength `s` (256 at 0, 6 at 1). */
function posterLevels(s: number): number {
  return Math.max(2, Math.min(256, Math.round(2 ** (8 - 5.5 * s))));
}

function param(v: number, lo: number, hi: number, fallback: number): number {
  return Number.isFinite(v) ? clamp(v, lo, hi) : fallback;
}

function checkSide(v: number, name: string): number {
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be a positive integer`);
  return v;
}
