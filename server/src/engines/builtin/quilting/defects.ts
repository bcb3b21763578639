/**
 * Cut defects: straight stretches of a patch cut along which the output's lines break (a mortar
 * line or a plank's gap that stops at the cut, a line that starts from nothing there). In a
 * seamless texture such a stretch repeats on every tile of a floor, as a stripe.
 *
 * The measure. Every pixel knows the reference pixel it was copied from (`source`). Across a cut
 * (two neighbours not copied from neighbouring reference pixels) the reference says what the
 * output should look like there, in two ways:
 * - the step across the cut: at the first pixel's source, the step to its own next pixel; at the
 *   second's, the step from its own previous pixel; the expected step is their mean, and the
 *   output's step is compared with it (a line ending at the cut is a large step the reference
 *   never has there);
 * - the lines crossing the cut: the step along the cut beside the second pixel against the step
 *   the reference has beside the first pixel's source, and the other way round (a mortar joint
 *   whose edges stop at the cut, or edges that start from nothing). These come from the sources,
 *   so Poisson blending, which evens out the steps, cannot hide them.
 * A pair's disagreement is the squared difference (summed over RGB) of both, divided by the
 * reference's gradient energy (the mean squared step between its neighbours, summed over RGB):
 * about 1 for a step as large as the texture's ordinary ones. A defect's score is the mean
 * disagreement along a stretch of rows for a vertical cut, columns for a horizontal one, the cut
 * allowed to wander by a pixel either side, at least three quarters of it on a cut. Two scales
 * (`DefectScale`): half a patch finds long broken rows; a quarter patch finds a single thin line
 * ending at a cut, which over half a patch is diluted by the agreeing pairs around it. The stripe
 * measure of an output is its worst defect score per scale; on a seamless output the wrap-around
 * pairs count as well, since they are what a tiled floor repeats.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction (see options.ts). */
import type { RawImage } from '../../../imaging/raw-image.js';
import { gradientEnergy } from './numeric.js';

/** The pixels and their sources, and the reference they came from. */
export interface DefectInput {
  /**
   * The output's pixels (RGBA), for the steps across the cuts; without them (the repair, before
   * Poisson blending evens those steps out) only the lines crossing the cuts count.
   */
  data?: Uint8Array;
  /** The output's size, and whether it is on a torus. */
  W: number;
  H: number;
  seamless: boolean;
  /** Per output pixel, the reference pixel (y · Wr + x) it was copied from (−1: none). */
  source: Int32Array;
  /** The reference (RGBA) and its size. */
  ref: ArrayLike<number>;
  Wr: number;
  Hr: number;
  /** The reference's gradient energy summed over RGB (3 × numeric.ts' `gradientEnergy`). */
  energy: number;
}

/** A scale of the search: the stretch length, and the score from which a stretch is a defect. */
export interface DefectScale {
  length: number;
  minScore: number;
}

/**
 * The two scales for a patch of `P` pixels: half a patch (`coarse`) and a quarter (`fine`), each
 * with its bound (Infinity: only the worst score is wanted).
 */
export function defectScales(P: number, coarse = Infinity, fine = Infinity): DefectScale[] {
  return [
    { length: Math.ceil(P / 2), minScore: coarse },
    { length: Math.ceil(P / 4), minScore: fine },
  ];
}

/** A rectangle of the output to search: per column/row its output index (−1: outside). */
export interface DefectView {
  cols: Int32Array;
  rows: Int32Array;
  /** The last column pairs with the first and the last row with the first (a whole torus). */
  wrap: boolean;
}

export interface CutDefect {
  /** Output pixel where the stretch starts (its first pair's first pixel). */
  x: number;
  y: number;
  /** 'vertical': a cut running down between columns x and x + 1; 'horizontal': along rows. */
  direction: 'vertical' | 'horizontal';
  length: number;
  score: number;
  /** The score over its scale's bound (what ranks defects of different scales). */
  excess: number;
}

/** Share of a stretch that must be on a cut. */
const ON_CUT = 0.75;

/** The whole output as a view (wrapping when seamless). */
export function wholeView(W: number, H: number, seamless: boolean): DefectView {
  return {
    cols: Int32Array.from({ length: W }, (_, i) => i),
    rows: Int32Array.from({ length: H }, (_, i) => i),
    wrap: seamless,
  };
}

/**
 * The defects in `view` scoring at least their scale's `minScore` (strongest over its bound first,
 * overlapping stretches merged across the scales), and per scale the worst score there (0 without
 * any stretch of cut). The pairs are scored once for all scales.
 */
export function findDefects(
  input: DefectInput,
  view: DefectView,
  scales: readonly DefectScale[],
): { worst: number[]; defects: CutDefect[] } {
  const candidates: CutDefect[] = [];
  const worst = scales.map(() => 0);
  for (const direction of ['vertical', 'horizontal'] as const) {
    const across = direction === 'vertical' ? view.cols : view.rows;
    const along = direction === 'vertical' ? view.rows : view.cols;
    const n = across.length;
    const m = along.length;
    // Per pair, its disagreement (−1: not a cut).
    const pairs = new Float64Array(n * m);
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < m; b++) pairs[a * m + b] = pairAt(input, view, direction, a, b);
    }
    // Per column (row) of the view and stretch position, the band's strongest disagreement (the
    // cut may wander a pixel; −1: no cut in the band), and prefix sums over it (wrapping once on a
    // torus) of the disagreements and of the pairs on a cut: any scale's stretch is two lookups.
    const reach = view.wrap ? 2 * m : m;
    const band = new Float64Array(m);
    const sums = new Float64Array(reach + 1);
    const cuts = new Int32Array(reach + 1);
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < m; b++) {
        let best = -1;
        for (let da = -1; da <= 1; da++) {
          const at = view.wrap ? (a + da + n) % n : a + da;
          if (at >= 0 && at < n && pairs[at * m + b]! > best) best = pairs[at * m + b]!;
        }
        band[b] = best;
      }
      for (let b = 0; b < reach; b++) {
        const e = band[b < m ? b : b - m]!;
        sums[b + 1] = sums[b]! + (e >= 0 ? e : 0);
        cuts[b + 1] = cuts[b]! + (e >= 0 ? 1 : 0);
      }
      for (let k = 0; k < scales.length; k++) {
        const scale = scales[k]!;
        const L = Math.min(scale.length, m);
        const starts = view.wrap ? m : m - L + 1;
        for (let s = 0; s < starts; s++) {
          if (cuts[s + L]! - cuts[s]! < ON_CUT * L) continue;
          const score = Math.max(0, sums[s + L]! - sums[s]!) / L;
          if (score > worst[k]!) worst[k] = score;
          if (score >= scale.minScore) {
            const [x, y] =
              direction === 'vertical' ? [across[a]!, along[s]!] : [along[s]!, across[a]!];
            candidates.push({ x, y, direction, length: L, score, excess: score / scale.minScore });
          }
        }
      }
    }
  }
  return { worst, defects: merge(candidates) };
}

/** The stripe measure of a finished output against its reference: its worst defect score. */
export function stripeMeasure(
  image: RawImage,
  source: Int32Array,
  reference: RawImage,
  seamless: boolean,
  scales: readonly DefectScale[],
): { worst: number[]; defects: CutDefect[] } {
  const input: DefectInput = {
    data: image.data,
    W: image.width,
    H: image.height,
    seamless,
    source,
    ref: reference.data,
    Wr: reference.width,
    Hr: reference.height,
    energy: 3 * Math.max(1, gradientEnergy(reference.data, reference.width, reference.height)),
  };
  return findDefects(input, wholeView(image.width, image.height, seamless), scales);
}

/**
 * The disagreement of the pair at view column/row `a` (across) and `b` (along): for a vertical
 * cut, the pixel at (a, b) and its right neighbour; −1 when the pair is not a cut or not there.
 */
function pairAt(
  input: DefectInput,
  view: DefectView,
  direction: 'vertical' | 'horizontal',
  a: number,
  b: number,
): number {
  const across = direction === 'vertical' ? view.cols : view.rows;
  const n = across.length;
  if (!view.wrap && (a < 0 || a + 1 >= n)) return -1;
  const a0 = across[(a + n) % n]!;
  const a1 = across[(a + 1) % n]!;
  const c = (direction === 'vertical' ? view.rows : view.cols)[b]!;
  if (a0 < 0 || a1 < 0 || c < 0) return -1;
  const { W, data, source, ref, Wr, Hr } = input;
  const vertical = direction === 'vertical';
  const p = vertical ? c * W + a0 : a0 * W + c;
  const q = vertical ? c * W + a1 : a1 * W + c;
  const sp = source[p]!;
  const sq = source[q]!;
  if (sp < 0 || sq < 0) return -1;
  const step = direction === 'vertical' ? 1 : Wr;
  const pHasNext = direction === 'vertical' ? sp % Wr !== Wr - 1 : sp + Wr < Wr * Hr;
  if (sq === sp + step && pHasNext) return -1; // copied from neighbours: not a cut
  const qHasPrev = direction === 'vertical' ? sq % Wr !== 0 : sq >= Wr;
  // Along the cut: the output's next pixels after p and q, and the reference's step that way.
  const nextC =
    view.wrap || input.seamless ? (c + 1) % (direction === 'vertical' ? input.H : W) : c + 1;
  const hasNext = nextC < (direction === 'vertical' ? input.H : W);
  const [pn, qn] =
    direction === 'vertical' ? [nextC * W + a0, nextC * W + a1] : [a0 * W + nextC, a1 * W + nextC];
  const spn = hasNext ? source[pn]! : -1;
  const sqn = hasNext ? source[qn]! : -1;
  const alongR = direction === 'vertical' ? Wr : 1;
  const refHasNext = (s: number) =>
    direction === 'vertical' ? s + Wr < Wr * Hr : s % Wr !== Wr - 1;
  const alongRef = (s: number, ch: number) =>
    refHasNext(s) ? ref[(s + alongR) * 4 + ch]! - ref[s * 4 + ch]! : 0;
  let e = 0;
  for (let ch = 0; ch < 3; ch++) {
    let expected = 0;
    let k = 0;
    if (pHasNext) {
      expected += ref[(sp + step) * 4 + ch]! - ref[sp * 4 + ch]!;
      k++;
    }
    if (qHasPrev) {
      expected += ref[sq * 4 + ch]! - ref[(sq - step) * 4 + ch]!;
      k++;
    }
    if (data) {
      const d = data[q * 4 + ch]! - data[p * 4 + ch]! - (k > 0 ? expected / k : 0);
      e += d * d;
    }
    // Only where both sides go on along the cut as copied (not where the cut path turns).
    if (spn !== sp + alongR || sqn !== sq + alongR) continue;
    // The lines crossing the cut: q's step along it against the step beside p's source, and p's
    // against the step beside q's source (half weight each: two looks at one pair).
    const dq = ref[sqn * 4 + ch]! - ref[sq * 4 + ch]! - (pHasNext ? alongRef(sp + step, ch) : 0);
    const dp = ref[spn * 4 + ch]! - ref[sp * 4 + ch]! - (qHasPrev ? alongRef(sq - step, ch) : 0);
    e += (dq * dq + dp * dp) / 2;
  }
  return e / input.energy;
}

/**
 * Overlapping stretches (the same cut seen from neighbouring columns, shifted by a row, or at the
 * other scale) as one defect: the strongest over its bound kept, its span grown to cover the
 * others.
 */
function merge(candidates: CutDefect[]): CutDefect[] {
  candidates.sort((a, b) => b.excess - a.excess);
  const kept: CutDefect[] = [];
  for (const c of candidates) {
    const same = kept.find((k) => k.direction === c.direction && overlaps(k, c));
    if (!same) {
      kept.push({ ...c });
      continue;
    }
    const vertical = c.direction === 'vertical';
    const start = Math.min(vertical ? same.y : same.x, vertical ? c.y : c.x);
    const end = Math.max(
      (vertical ? same.y : same.x) + same.length,
      (vertical ? c.y : c.x) + c.length,
    );
    if (vertical) same.y = start;
    else same.x = start;
    same.length = end - start;
  }
  return kept;
}

function overlaps(a: CutDefect, b: CutDefect): boolean {
  const vertical = a.direction === 'vertical';
  const acrossA = vertical ? a.x : a.y;
  const acrossB = vertical ? b.x : b.y;
  if (Math.abs(acrossA - acrossB) > 2) return false;
  const alongA = vertical ? a.y : a.x;
  const alongB = vertical ? b.y : b.x;
  return alongB < alongA + a.length && alongA < alongB + b.length;
}
