/**
 * The patch search: which source position in the reference a patch is copied from. Candidates
 * (the layout's position and a seeded sample near it, the positions that continue the placed
 * neighbours, a seeded random sample) are scored by the overlap cost on a sparse sample of the
 * overlap, pruned early; the best few are refined by a local pattern search, and one is drawn
 * among the best distinct ones, scored on the whole overlap, with a temperature.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction (see options.ts). */
import { layoutCost, type Grain } from './layout-term.js';
import { reuseCost, type ReuseTerm } from './reuse-term.js';
import type { Prng } from '../prng.js';
import { SAMPLE_VALUES, type Overlap, type OverlapSamples } from './overlap.js';

/** Candidates kept from the coarse scoring, refined, and drawn from. */
const KEEP = 24;
/** Candidates drawn near the layout's position (when similarity > 0). */
const NEAR_CANDIDATES = 64;
const REFINE = 3;
const DRAW_FROM = 6;

/** Where patches may be copied from. */
export interface SearchSpace {
  /** The (stylised) reference, RGBA. */
  ref: Uint8Array;
  /** The reference's luminance gradient, x and y per pixel, and the weight of its difference. */
  grad: Int16Array;
  structureWeight: number;
  Wr: number;
  /** Valid patch origins: [0, nvx) × [0, nvy), further limited by `allowed` (the mask). */
  nvx: number;
  nvy: number;
  allowed?: Uint8Array;
  /** The allowed origins as a list (y · nvx + x), to sample from. */
  validList?: Uint32Array;
  /** Random candidates drawn per patch (four times as many for patches closing the torus). */
  randomCandidates: number;
}

/** What one patch's search needs to know. */
export interface PatchQuery {
  overlap: Overlap;
  /** Where the layout term wants the patch, the slack around it and the pull beyond it. */
  tx: number;
  ty: number;
  slack: number;
  pull: number;
  /**
   * For an oriented reference (structure.ts): the grain's unit vector and the pull across it,
   * which has no slack, so that every patch keeps the layout's phase across the grain and the
   * lines (a plank's gap lines) meet their neighbours' in every column; the slack is along it.
   */
  grain?: Grain;
  /** Whether to sample candidates near the layout's position (similarity > 0). */
  nearLayout: boolean;
  /** Source positions that continue the placed neighbours' copies, as x, y pairs. */
  coherent: number[];
  /** Held on three or four sides: searched harder. */
  closing: boolean;
  /** Temperature of the draw (0: the best always wins). */
  temperature: number;
  /** Chance that the patch breaks away from its neighbours' copies. */
  breakAwayChance: number;
  /**
   * Source positions (x, y pairs) the patch must not come near, closer than `avoidRadius` on
   * both axes: a series' face must not continue face 1's copies from the shared frame.
   */
  avoid?: number[];
  avoidRadius?: number;
  /** What the placed patches copied: sharing their source pixels elsewhere pays (reuse-term.ts). */
  reuse?: ReuseTerm;
}

export interface Candidate {
  cost: number;
  x: number;
  y: number;
}

export class PatchSearch {
  private readonly keep = new Keep(KEEP);
  private readonly seen = new Set<number>();

  constructor(
    private readonly space: SearchSpace,
    private readonly P: number,
    private readonly rng: Prng,
  ) {}

  private isValid(x: number, y: number): boolean {
    const { nvx, nvy, allowed } = this.space;
    return x >= 0 && y >= 0 && x < nvx && y < nvy && (!allowed || allowed[y * nvx + x] === 1);
  }

  /**
   * The overlap cost of the source patch at (sx, sy): the layout term plus the mean squared
   * colour difference over the samples, plus the weighted squared difference of their structure
   * (so that lines continue across the cut), all raised by the reuse term (reuse-term.ts);
   * Infinity as soon as it is sure to exceed `cutoff`.
   */
  private cost(
    query: PatchQuery,
    sx: number,
    sy: number,
    samples: OverlapSamples,
    cutoff: number,
  ): number {
    const { ref, grad, structureWeight, Wr } = this.space;
    const { offs, vals, n } = samples;
    const layout = layoutCost(query, sx - query.tx, sy - query.ty);
    // A re-used source pays in proportion to its cost: among the well-fitting candidates an
    // unused one wins, while one that breaks the lines in the overlap stays worse.
    const reuse = 1 + reuseCost(query.reuse, sx, sy);
    if (n === 0) return layout * reuse;
    const limit = (cutoff / reuse - layout) * n * 3;
    if (limit <= 0) return Infinity;
    const base = sy * Wr + sx;
    let acc = 0;
    for (let k = 0, q = 0; k < n; k++, q += SAMPLE_VALUES) {
      const s = base + offs[k]!;
      const p = s * 4;
      const dr = ref[p]! - vals[q]!;
      const dg = ref[p + 1]! - vals[q + 1]!;
      const db = ref[p + 2]! - vals[q + 2]!;
      const gx = grad[s * 2]! - vals[q + 3]!;
      const gy = grad[s * 2 + 1]! - vals[q + 4]!;
      acc += dr * dr + dg * dg + db * db + structureWeight * (gx * gx + gy * gy);
      if ((k & 31) === 31 && acc > limit) return Infinity;
    }
    return (layout + acc / (n * 3)) * reuse;
  }

  private consider(query: PatchQuery, sx: number, sy: number): void {
    if (!this.isValid(sx, sy) || this.avoided(query, sx, sy)) return;
    const key = sy * this.space.nvx + sx;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const c = this.cost(query, sx, sy, query.overlap.coarse, this.keep.cutoff());
    if (c < Infinity) this.keep.offer(c, sx, sy);
  }

  /** The chosen source position for the patch. */
  choose(query: PatchQuery): Candidate {
    const { rng, keep, P } = this;
    const { nvx, nvy, validList } = this.space;
    keep.reset();
    this.seen.clear();

    // Candidates: the layout's position, continuations of the placed neighbours, a sample.
    if (query.nearLayout) {
      const { tx, ty, slack, grain } = query;
      this.consider(query, tx, ty);
      for (let r = 0; r < NEAR_CANDIDATES; r++) {
        const u = rng.int(2 * slack + 1) - slack;
        // Along the grain only when the phase across it is held.
        const v = grain ? 0 : rng.int(2 * slack + 1) - slack;
        this.consider(
          query,
          grain ? tx + Math.round(u * grain.tx) : tx + u,
          grain ? ty + Math.round(u * grain.ty) : ty + v,
        );
      }
    }
    const { coherent } = query;
    for (let k = 0; k < coherent.length; k += 2)
      this.consider(query, coherent[k]!, coherent[k + 1]!);
    const randomCount = this.space.randomCandidates * (query.closing ? 4 : 1);
    for (let r = 0; r < randomCount; r++) {
      if (validList) {
        const key = validList[rng.int(validList.length)]!;
        this.consider(query, key % nvx, Math.floor(key / nvx));
      } else {
        this.consider(query, rng.int(nvx), rng.int(nvy));
      }
    }

    const full = query.overlap.full;
    if (full.n > 0) this.refine(query);

    // Draw among the best distinct candidates, scored on the whole overlap. Breaking away (a
    // chance that grows with imagination) leaves out the candidates that would continue a
    // neighbour's copy of the reference, so a new piece is joined in.
    const breakAway = rng.next() < query.breakAwayChance;
    let ranked = keep.snapshot();
    if (ranked.length === 0) ranked = [{ cost: 0, x: query.tx, y: query.ty }];
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
    const pool: Candidate[] = [];
    for (const c of ranked) {
      if (pool.length >= DRAW_FROM) break;
      if (pool.some((p) => near(p, c.x, c.y))) continue;
      pool.push({
        cost: full.n > 0 ? this.cost(query, c.x, c.y, full, Infinity) : c.cost,
        x: c.x,
        y: c.y,
      });
    }
    return draw(pool, query.temperature, rng.next());
  }

  private avoided(query: PatchQuery, x: number, y: number): boolean {
    const { avoid, avoidRadius = 0 } = query;
    if (!avoid) return false;
    for (let k = 0; k < avoid.length; k += 2) {
      if (Math.abs(avoid[k]! - x) < avoidRadius && Math.abs(avoid[k + 1]! - y) < avoidRadius)
        return true;
    }
    return false;
  }

  /** Refines the best few candidates by a local pattern search (steps 4, 2, 1). */
  private refine(query: PatchQuery): void {
    const { keep, seen } = this;
    const { nvx } = this.space;
    const coarse = query.overlap.coarse;
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
              if ((dx === 0 && dy === 0) || !this.isValid(x, y) || this.avoided(query, x, y))
                continue;
              const key = y * nvx + x;
              if (seen.has(key)) continue;
              seen.add(key);
              const c = this.cost(query, x, y, coarse, bc);
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
  snapshot(): Candidate[] {
    return Array.from({ length: this.size }, (_, k) => ({
      cost: this.costs[k]!,
      x: this.xs[k]!,
      y: this.ys[k]!,
    }));
  }
}
