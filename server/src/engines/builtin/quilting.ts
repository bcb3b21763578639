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
import type { RawImage } from '../engine.js';
import { mulberry32 } from './prng.js';

export interface SynthesisOptions {
  /** Output size in pixels. */
  width: number;
  height: number;
  /** Unsigned 32-bit seed: same reference, options and seed give identical pixels. */
  seed: number;
  /** Synthesize on a torus: the output tiles with no visible seam in both directions. */
  seamless: boolean;
  /** Copy only from where the reference's alpha is at least 128 (when it has such a region). */
  mask: boolean;
  /** 0..1: how closely the layout follows the reference (0 free rearrangement, 1 follows it). */
  similarity: number;
  /** 0..20: variation: temperature of the choice among good candidates, and how often a new
   * piece is joined in where the neighbour's copy could simply go on (0: always the best). */
  imaginationWeight: number;
  /** 0..2: patch size, i.e. how large the reference's structures copied intact are. */
  promptAdherence: number;
  /** 0..1: stylisation strength (saturated, contrasted, posterised colours). */
  style: number;
}

/** The references' short side is enlarged to at least this many pixels. */
export const MIN_WORKING_SIDE = 64;

/** Alpha at or above this marks the region that `mask` allows copying from. */
export const MASK_ALPHA_THRESHOLD = 128;

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
  const levels = Math.max(2, Math.min(256, Math.round(2 ** (8 - 5.5 * s))));
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
/** Overlap pixels sampled for the first, coarse scoring of the candidates. */
const COARSE_SAMPLES = 384;
/** Candidates kept from the coarse scoring, refined, and drawn from. */
const KEEP = 24;
/** Candidates drawn near the layout's position (when similarity > 0). */
const NEAR_CANDIDATES = 64;
const REFINE = 3;
const DRAW_FROM = 6;

/**
 * Synthesizes `options.width × options.height` RGBA pixels (alpha 255) from `reference`.
 * `onProgress` receives the fraction of patches placed, rising from 0 to 1.
 */
export function synthesize(
  reference: RawImage,
  options: SynthesisOptions,
  onProgress?: (fraction: number) => void,
): RawImage {
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

  const ref = stylise(reference, style).data;

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
  const allowed = region?.allowed;
  const validList = region?.list;
  const randomCandidates = clampInt(
    2 * Math.sqrt(region ? region.count : nvx * nvy),
    MIN_RANDOM,
    MAX_RANDOM,
  );
  const isValid = (x: number, y: number): boolean =>
    x >= 0 && y >= 0 && x < nvx && y < nvy && (!allowed || allowed[y * nvx + x] === 1);

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
  const offX = rng.int(nvx);
  const offY = rng.int(nvy);

  const canvas = new Uint8Array(W * H * 4);
  const filled = new Uint8Array(W * H);
  const srcX = new Int32Array(nx * ny).fill(-1);
  const srcY = new Int32Array(nx * ny).fill(-1);

  // Per-patch scratch.
  const colMap = new Int32Array(P);
  const rowMap = new Int32Array(P);
  const fullOffs = new Int32Array(P * P);
  const fullVals = new Int16Array(P * P * 3);
  const coarseOffs = new Int32Array(P * P);
  const coarseVals = new Int16Array(P * P * 3);
  const err = new Float64Array(P * P);
  const take = new Uint8Array(P * P);
  const keep = new Keep(KEEP);

  const total = nx * ny;
  let placed = 0;
  onProgress?.(0);
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const x0 = xs[i]!;
      const y0 = ys[j]!;
      for (let u = 0; u < P; u++) colMap[u] = wrapOrClip(x0 + u, W, seamless);
      for (let v = 0; v < P; v++) rowMap[v] = wrapOrClip(y0 + v, H, seamless);

      // The overlap: window pixels already filled, with their colours.
      let nFull = 0;
      for (let v = 0; v < P; v++) {
        const cy = rowMap[v]!;
        if (cy < 0) continue;
        for (let u = 0; u < P; u++) {
          const cx = colMap[u]!;
          if (cx < 0 || filled[cy * W + cx] === 0) continue;
          const c = (cy * W + cx) * 4;
          fullOffs[nFull] = v * Wr + u;
          fullVals[nFull * 3] = canvas[c]!;
          fullVals[nFull * 3 + 1] = canvas[c + 1]!;
          fullVals[nFull * 3 + 2] = canvas[c + 2]!;
          nFull++;
        }
      }
      const stride = Math.max(1, Math.floor(Math.sqrt(nFull / COARSE_SAMPLES)));
      let nCoarse = 0;
      if (stride === 1) {
        coarseOffs.set(fullOffs.subarray(0, nFull));
        coarseVals.set(fullVals.subarray(0, nFull * 3));
        nCoarse = nFull;
      } else {
        for (let k = 0; k < nFull; k++) {
          const off = fullOffs[k]!;
          const v = Math.floor(off / Wr);
          const u = off - v * Wr;
          if (u % stride !== 0 || v % stride !== 0) continue;
          coarseOffs[nCoarse] = off;
          coarseVals[nCoarse * 3] = fullVals[k * 3]!;
          coarseVals[nCoarse * 3 + 1] = fullVals[k * 3 + 1]!;
          coarseVals[nCoarse * 3 + 2] = fullVals[k * 3 + 2]!;
          nCoarse++;
        }
      }

      // Patches closing the torus are held on three or four sides: they are searched harder and
      // the layout term holds them less (the reference's far side rarely fits there).
      const closing = seamless && (i === nx - 1 || j === ny - 1);
      const patchPull = closing ? pull * 0.1 : pull;

      // Where the layout term wants this patch: the reference, shifted by a seeded offset and
      // repeated (every W − P + 1 pixels, so that every patch position is a valid one), laid
      // under the output.
      const tx = (x0 + offX) % nvx;
      const ty = (y0 + offY) % nvy;

      const cost = (
        sx: number,
        sy: number,
        offs: Int32Array,
        vals: Int16Array,
        n: number,
        cutoff: number,
      ): number => {
        const dx = Math.max(0, Math.abs(sx - tx) - slack);
        const dy = Math.max(0, Math.abs(sy - ty) - slack);
        const layout = patchPull * (dx * dx + dy * dy);
        if (n === 0) return layout;
        const limit = (cutoff - layout) * n * 3;
        if (limit <= 0) return Infinity;
        const base = sy * Wr + sx;
        let acc = 0;
        for (let k = 0, q = 0; k < n; k++, q += 3) {
          const p = (base + offs[k]!) * 4;
          const dr = ref[p]! - vals[q]!;
          const dg = ref[p + 1]! - vals[q + 1]!;
          const db = ref[p + 2]! - vals[q + 2]!;
          acc += dr * dr + dg * dg + db * db;
          if ((k & 31) === 31 && acc > limit) return Infinity;
        }
        return layout + acc / (n * 3);
      };

      keep.reset();
      const coherent: number[] = [];
      const seen = new Set<number>();
      const consider = (sx: number, sy: number): void => {
        if (!isValid(sx, sy)) return;
        const key = sy * nvx + sx;
        if (seen.has(key)) return;
        seen.add(key);
        const c = cost(sx, sy, coarseOffs, coarseVals, nCoarse, keep.cutoff());
        if (c < Infinity) keep.offer(c, sx, sy);
      };

      // Candidates: the layout's position, continuations of the placed neighbours, a sample.
      if (similarity > 0) {
        consider(tx, ty);
        for (let r = 0; r < NEAR_CANDIDATES; r++) {
          consider(tx + rng.int(2 * slack + 1) - slack, ty + rng.int(2 * slack + 1) - slack);
        }
      }
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
          consider(srcX[n]! + ddx, srcY[n]! + ddy);
        }
      }
      for (let r = 0; r < randomCandidates * (closing ? 4 : 1); r++) {
        if (validList) {
          const key = validList[rng.int(validList.length)]!;
          consider(key % nvx, Math.floor(key / nvx));
        } else {
          consider(rng.int(nvx), rng.int(nvy));
        }
      }

      // Refine the best few by a local pattern search (steps 4, 2, 1).
      if (nFull > 0) {
        const starts = keep.snapshot().slice(0, REFINE);
        for (const start of starts) {
          let bx = start.x;
          let by = start.y;
          let bc = start.cost;
          for (let step = 4; step >= 1; step >>= 1) {
            for (let moves = 0; moves < 8; moves++) {
              let moved = false;
              for (let dy = -step; dy <= step; dy += step) {
                for (let dx = -step; dx <= step; dx += step) {
                  const x = bx + dx;
                  const y = by + dy;
                  if ((dx === 0 && dy === 0) || !isValid(x, y)) continue;
                  const key = y * nvx + x;
                  if (seen.has(key)) continue;
                  seen.add(key);
                  const c = cost(x, y, coarseOffs, coarseVals, nCoarse, bc);
                  if (c < bc) {
                    keep.offer(c, x, y);
                    bc = c;
                    bx = x;
                    by = y;
                    moved = true;
                  }
                }
              }
              if (!moved) break;
            }
          }
        }
      }

      // Draw among the best distinct candidates, scored on the whole overlap. Breaking away (a
      // chance that grows with imagination) leaves out the candidates that would continue a
      // neighbour's copy of the reference, so a new piece is joined in.
      const breakAway = rng.next() < 0.5 * (imagination / 20) ** 2;
      let ranked = keep.snapshot();
      if (ranked.length === 0) ranked = [{ cost: 0, x: tx, y: ty }];
      const minSpacing = Math.max(2, Math.round(P / 8));
      const near = (a: { x: number; y: number }, x: number, y: number) =>
        Math.abs(a.x - x) < minSpacing && Math.abs(a.y - y) < minSpacing;
      if (breakAway) {
        const fresh = ranked.filter((c) => {
          for (let k = 0; k < coherent.length; k += 2) {
            if (near(c, coherent[k]!, coherent[k + 1]!)) return false;
          }
          return true;
        });
        if (fresh.length > 0) ranked = fresh;
      }
      const pool: { cost: number; x: number; y: number }[] = [];
      for (const c of ranked) {
        if (pool.length >= DRAW_FROM) break;
        if (pool.some((p) => near(p, c.x, c.y))) continue;
        pool.push({
          cost: nFull > 0 ? cost(c.x, c.y, fullOffs, fullVals, nFull, Infinity) : c.cost,
          x: c.x,
          y: c.y,
        });
      }
      const chosen = draw(pool, temperature, rng.next());
      const sx = chosen.x;
      const sy = chosen.y;
      srcX[j * nx + i] = sx;
      srcY[j * nx + i] = sy;

      // Minimum-error boundary cuts on each overlapping side, combined.
      const oL = i > 0 ? xs[i - 1]! + P - x0 : 0;
      const oT = j > 0 ? ys[j - 1]! + P - y0 : 0;
      const oR = seamless && i === nx - 1 && nx > 1 ? x0 + P - W : 0;
      const oB = seamless && j === ny - 1 && ny > 1 ? y0 + P - H : 0;
      err.fill(0);
      for (let v = 0; v < P; v++) {
        const cy = rowMap[v]!;
        if (cy < 0) continue;
        for (let u = 0; u < P; u++) {
          const cx = colMap[u]!;
          if (cx < 0 || filled[cy * W + cx] === 0) continue;
          const c = (cy * W + cx) * 4;
          const p = ((sy + v) * Wr + sx + u) * 4;
          const dr = ref[p]! - canvas[c]!;
          const dg = ref[p + 1]! - canvas[c + 1]!;
          const db = ref[p + 2]! - canvas[c + 2]!;
          err[v * P + u] = dr * dr + dg * dg + db * db;
        }
      }
      const cutL = oL > 0 ? minCut(err, P, true, 0, clampInt(oL, 1, P)) : undefined;
      const cutR =
        oR > 0 ? minCut(err, P, true, P - clampInt(oR, 1, P), clampInt(oR, 1, P)) : undefined;
      const cutT = oT > 0 ? minCut(err, P, false, 0, clampInt(oT, 1, P)) : undefined;
      const cutB =
        oB > 0 ? minCut(err, P, false, P - clampInt(oB, 1, P), clampInt(oB, 1, P)) : undefined;

      // Which window pixels take the new patch (1) or keep the canvas (0); unfilled are new.
      for (let v = 0; v < P; v++) {
        const cy = rowMap[v]!;
        for (let u = 0; u < P; u++) {
          const cx = colMap[u]!;
          let m = 1;
          if (cy >= 0 && cx >= 0 && filled[cy * W + cx] === 1) {
            if (
              (cutL && u < cutL[v]!) ||
              (cutR && u > cutR[v]!) ||
              (cutT && v < cutT[u]!) ||
              (cutB && v > cutB[u]!)
            )
              m = 0;
          }
          take[v * P + u] = m;
        }
      }
      // Paste, feathering the cuts over 3×3 pixels so that they do not show as hard edges.
      for (let v = 0; v < P; v++) {
        const cy = rowMap[v]!;
        if (cy < 0) continue;
        for (let u = 0; u < P; u++) {
          const cx = colMap[u]!;
          if (cx < 0) continue;
          const at = cy * W + cx;
          let a = 1;
          if (filled[at] === 1) {
            let sum = 0;
            let n = 0;
            for (let b = Math.max(0, v - 1); b <= Math.min(P - 1, v + 1); b++) {
              for (let c = Math.max(0, u - 1); c <= Math.min(P - 1, u + 1); c++) {
                sum += take[b * P + c]!;
                n++;
              }
            }
            a = sum / n;
            if (a === 0) continue;
          }
          const c = at * 4;
          const p = ((sy + v) * Wr + sx + u) * 4;
          if (a === 1) {
            canvas[c] = ref[p]!;
            canvas[c + 1] = ref[p + 1]!;
            canvas[c + 2] = ref[p + 2]!;
          } else {
            canvas[c] = Math.round(canvas[c]! + (ref[p]! - canvas[c]!) * a);
            canvas[c + 1] = Math.round(canvas[c + 1]! + (ref[p + 1]! - canvas[c + 1]!) * a);
            canvas[c + 2] = Math.round(canvas[c + 2]! + (ref[p + 2]! - canvas[c + 2]!) * a);
          }
          canvas[c + 3] = 255;
          filled[at] = 1;
        }
      }

      placed++;
      onProgress?.(placed / total);
    }
  }

  if (!seamless) return { data: canvas, width: W, height: H };
  // A torus has no edge: any column and row may serve as the frame's edge without changing how
  // the result tiles. Take the smoothest ones, so the frame never runs along a feature's edge.
  const { column, row } = smoothestLines(canvas, W, H);
  return { data: roll(canvas, W, H, column, row), width: W, height: H };
}

/**
 * The column x whose pixels differ least from those of column x − 1 (modulo W), and the row y
 * likewise: rolled to x = 0 and y = 0, those pairs become the wrap-around edges.
 */
function smoothestLines(data: Uint8Array, W: number, H: number): { column: number; row: number } {
  const columns = new Float64Array(W);
  const rows = new Float64Array(H);
  for (let y = 0; y < H; y++) {
    const up = ((y + H - 1) % H) * W;
    for (let x = 0; x < W; x++) {
      const p = (y * W + x) * 4;
      const left = (y * W + ((x + W - 1) % W)) * 4;
      const above = (up + x) * 4;
      for (let c = 0; c < 3; c++) {
        columns[x] = columns[x]! + Math.abs(data[p + c]! - data[left + c]!);
        rows[y] = rows[y]! + Math.abs(data[p + c]! - data[above + c]!);
      }
    }
  }
  let column = 0;
  for (let x = 1; x < W; x++) if (columns[x]! < columns[column]!) column = x;
  let row = 0;
  for (let y = 1; y < H; y++) if (rows[y]! < rows[row]!) row = y;
  return { column, row };
}

/** Patch origins along one axis of `length` pixels, for side `P` and stride `S`. */
function gridPositions(length: number, P: number, S: number, seamless: boolean): Int32Array {
  if (seamless) {
    const n = Math.max(2, Math.ceil(length / S));
    return Int32Array.from({ length: n }, (_, k) => Math.round((k * length) / n));
  }
  if (length <= P) return Int32Array.of(0);
  const n = Math.ceil((length - P) / S) + 1;
  return Int32Array.from({ length: n }, (_, k) => Math.round((k * (length - P)) / (n - 1)));
}

/**
 * A minimum-error path through a strip of the window's error surface: `vertical` strips span
 * columns [start, start + width) and every row, and the path gives one column per row;
 * horizontal strips span rows [start, start + width) and the path gives one row per column.
 */
function minCut(
  err: Float64Array,
  P: number,
  vertical: boolean,
  start: number,
  width: number,
): Int32Array {
  const at = vertical
    ? (along: number, across: number) => err[along * P + start + across]!
    : (along: number, across: number) => err[(start + across) * P + along]!;
  const acc = new Float64Array(P * width);
  for (let k = 0; k < width; k++) acc[k] = at(0, k);
  for (let a = 1; a < P; a++) {
    const row = a * width;
    const prev = row - width;
    for (let k = 0; k < width; k++) {
      let m = acc[prev + k]!;
      if (k > 0 && acc[prev + k - 1]! < m) m = acc[prev + k - 1]!;
      if (k < width - 1 && acc[prev + k + 1]! < m) m = acc[prev + k + 1]!;
      acc[row + k] = at(a, k) + m;
    }
  }
  const path = new Int32Array(P);
  let best = 0;
  const last = (P - 1) * width;
  for (let k = 1; k < width; k++) if (acc[last + k]! < acc[last + best]!) best = k;
  path[P - 1] = best;
  for (let a = P - 2; a >= 0; a--) {
    const row = a * width;
    let k = best;
    if (best > 0 && acc[row + best - 1]! < acc[row + k]!) k = best - 1;
    if (best < width - 1 && acc[row + best + 1]! < acc[row + k]!) k = best + 1;
    best = k;
    path[a] = best;
  }
  for (let a = 0; a < P; a++) path[a] = path[a]! + start;
  return path;
}

/** Draws one candidate with probability ∝ exp(-(cost - best) / temperature). */
function draw<T extends { cost: number }>(pool: T[], temperature: number, r: number): T {
  let best = pool[0]!;
  for (const c of pool) if (c.cost < best.cost) best = c;
  if (!(temperature > 0) || pool.length === 1) return best;
  const weights = pool.map((c) => Math.exp(-(c.cost - best.cost) / temperature));
  const sum = weights.reduce((a, b) => a + b, 0);
  let t = r * sum;
  for (let k = 0; k < pool.length; k++) {
    t -= weights[k]!;
    if (t < 0) return pool[k]!;
  }
  return pool[pool.length - 1]!;
}

/** The best few candidates seen, sorted by cost. */
class Keep {
  private readonly costs: Float64Array;
  private readonly xs: Int32Array;
  private readonly ys: Int32Array;
  private size = 0;
  constructor(private readonly capacity: number) {
    this.costs = new Float64Array(capacity);
    this.xs = new Int32Array(capacity);
    this.ys = new Int32Array(capacity);
  }
  reset(): void {
    this.size = 0;
  }
  cutoff(): number {
    return this.size < this.capacity ? Infinity : this.costs[this.size - 1]!;
  }
  offer(cost: number, x: number, y: number): void {
    if (this.size === this.capacity && cost >= this.costs[this.size - 1]!) return;
    let k = this.size < this.capacity ? this.size++ : this.size - 1;
    while (k > 0 && this.costs[k - 1]! > cost) {
      this.costs[k] = this.costs[k - 1]!;
      this.xs[k] = this.xs[k - 1]!;
      this.ys[k] = this.ys[k - 1]!;
      k--;
    }
    this.costs[k] = cost;
    this.xs[k] = x;
    this.ys[k] = y;
  }
  snapshot(): { cost: number; x: number; y: number }[] {
    return Array.from({ length: this.size }, (_, k) => ({
      cost: this.costs[k]!,
      x: this.xs[k]!,
      y: this.ys[k]!,
    }));
  }
}

/**
 * Patch origins whose whole P×P window lies where alpha ≥ {@link MASK_ALPHA_THRESHOLD}, as a
 * bitmap over the (W−P+1)×(H−P+1) origins and as a list.
 */
function maskRegion(
  image: RawImage,
  P: number,
): { allowed: Uint8Array; list: Uint32Array; count: number; total: number } {
  const { data, width: Wr, height: Hr } = image;
  const iw = Wr + 1;
  const integral = new Int32Array(iw * (Hr + 1));
  for (let y = 0; y < Hr; y++) {
    let rowSum = 0;
    for (let x = 0; x < Wr; x++) {
      if (data[(y * Wr + x) * 4 + 3]! < MASK_ALPHA_THRESHOLD) rowSum++;
      integral[(y + 1) * iw + x + 1] = integral[y * iw + x + 1]! + rowSum;
    }
  }
  const nvx = Math.max(0, Wr - P + 1);
  const nvy = Math.max(0, Hr - P + 1);
  const allowed = new Uint8Array(nvx * nvy);
  let count = 0;
  for (let y = 0; y < nvy; y++) {
    for (let x = 0; x < nvx; x++) {
      const masked =
        integral[(y + P) * iw + x + P]! -
        integral[y * iw + x + P]! -
        integral[(y + P) * iw + x]! +
        integral[y * iw + x]!;
      if (masked === 0) {
        allowed[y * nvx + x] = 1;
        count++;
      }
    }
  }
  const list = new Uint32Array(count);
  for (let k = 0, n = 0; k < allowed.length; k++) if (allowed[k] === 1) list[n++] = k;
  return { allowed, list, count, total: nvx * nvy };
}

/** Mean squared RGB difference between horizontal and vertical neighbours, per channel. */
function gradientEnergy(data: Uint8Array, W: number, H: number): number {
  let sum = 0;
  let n = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const p = (y * W + x) * 4;
      for (const q of [x + 1 < W ? p + 4 : -1, y + 1 < H ? p + W * 4 : -1]) {
        if (q < 0) continue;
        for (let c = 0; c < 3; c++) {
          const d = data[p + c]! - data[q + c]!;
          sum += d * d;
        }
        n += 3;
      }
    }
  }
  return n > 0 ? sum / n : 0;
}

/** Mean per-channel variance of the RGB values. */
function colourVariance(data: Uint8Array, n: number): number {
  let total = 0;
  for (let ch = 0; ch < 3; ch++) {
    let sum = 0;
    let sq = 0;
    for (let p = ch; p < n * 4; p += 4) {
      const v = data[p]!;
      sum += v;
      sq += v * v;
    }
    const mean = sum / n;
    total += sq / n - mean * mean;
  }
  return total / 3;
}

function roll(data: Uint8Array, W: number, H: number, dx: number, dy: number): Uint8Array {
  const out = new Uint8Array(data.length);
  const row = W * 4;
  const split = ((dx % W) + W) % W;
  for (let y = 0; y < H; y++) {
    const from = ((y + dy) % H) * row;
    const to = y * row;
    out.set(data.subarray(from + split * 4, from + row), to);
    out.set(data.subarray(from, from + split * 4), to + row - split * 4);
  }
  return out;
}

function wrapOrClip(v: number, length: number, wrap: boolean): number {
  if (wrap) return ((v % length) + length) % length;
  return v < length ? v : -1;
}

/** The representative of `d` modulo `length` nearest zero. */
function torusDelta(d: number, length: number): number {
  let r = ((d % length) + length) % length;
  if (r > length / 2) r -= length;
  return r;
}

function luma(r: number, g: number, b: number): number {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

function clampInt(v: number, lo: number, hi: number): number {
  return Math.round(clamp(v, lo, hi));
}

function param(v: number, lo: number, hi: number, fallback: number): number {
  return Number.isFinite(v) ? clamp(v, lo, hi) : fallback;
}

function checkSide(v: number, name: string): number {
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be a positive integer`);
  return v;
}
