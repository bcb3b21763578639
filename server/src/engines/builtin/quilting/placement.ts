/**
 * Placing patches on the canvas: for a grid cell, the search for its source, the minimum-error
 * boundary cuts against what is there, and the paste; every cell once, then (when repairing) the
 * cells whose cuts cost most, re-synthesised.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction (see options.ts). */
import type { Grain } from './layout-term.js';
import type { Prng } from '../prng.js';
import { paste } from './assembly.js';
import { cutMask } from './boundary-cut.js';
import { createCanvas, PatchWindow, type Canvas } from './canvas.js';
import { Overlap, overlapError } from './overlap.js';
import { PatchSearch, type Candidate, type PatchQuery, type SearchSpace } from './patch-search.js';
import {
  clearCore,
  restoreWindow,
  saveWindow,
  windowCutCost,
  type WindowState,
} from './resynthesis.js';
import { reuseTerm } from './reuse-term.js';
import { torusDelta, wrapOrClip } from './torus.js';

/** Share of the patches searched again after the first pass, the worst first. */
const REDO_SHARE = 0.15;
/** Only patches whose cuts cost more than this × the reference's own gradient energy. */
const REDO_ABOVE = 1.2;

/** The patch grid and what steers each patch's choice, fixed for one synthesis. */
export interface PlacementPlan {
  /** The output's size; on a torus when seamless. */
  W: number;
  H: number;
  seamless: boolean;
  /** The patch side and the width of its overlap with its neighbours. */
  P: number;
  O: number;
  /** The grid's patch origins, columns and rows. */
  xs: Int32Array;
  ys: Int32Array;
  /** The seeded offset of the reference laid under the output (the layout term's target). */
  offX: number;
  offY: number;
  /** How far a patch may sit from the layout's position, and what it pays beyond that. */
  slack: number;
  pull: number;
  /** Whether the layout term applies at all (similarity > 0). */
  nearLayout: boolean;
  /** An oriented reference's grain and the layout's pull across it (patch-search.ts). */
  grain?: Grain;
  /** Temperature of the draw among good candidates, and the chance to break away. */
  temperature: number;
  breakAwayChance: number;
  /**
   * Width of a fixed frame already on the canvas (a series' shared edges, series.ts), 0 for
   * none: the grid lies inside its outer part, and the cells at the grid's edge cut against its
   * inner part as against a neighbour.
   */
  frame: number;
  /**
   * Source maps of a series' earlier faces (face 1's first; empty otherwise): a patch does not
   * copy what they copied at its place, so the faces differ and the frame is not continued.
   */
  avoidSources: readonly Int32Array[];
  /** The cost's rise per patch-sized area copied twice elsewhere (reuse-term.ts); 0: none. */
  reuseWeight: number;
}

export class PatchPlacer {
  readonly canvas: Canvas;
  private readonly nx: number;
  private readonly ny: number;
  /** Per grid cell, the source position its patch was copied from (−1: not yet placed). */
  private readonly srcX: Int32Array;
  private readonly srcY: Int32Array;
  // Per-patch scratch.
  private readonly window: PatchWindow;
  private readonly overlap: Overlap;
  private readonly search: PatchSearch;
  private readonly err: Float64Array;
  private readonly take: Uint8Array;
  /** The window as it was before a retry. */
  private saved: WindowState | undefined;

  constructor(
    private readonly space: SearchSpace,
    private readonly plan: PlacementPlan,
    rng: Prng,
  ) {
    const { W, H, seamless, P, xs, ys } = plan;
    this.nx = xs.length;
    this.ny = ys.length;
    this.canvas = createCanvas(W, H, seamless);
    this.srcX = new Int32Array(this.nx * this.ny).fill(-1);
    this.srcY = new Int32Array(this.nx * this.ny).fill(-1);
    this.window = new PatchWindow(P);
    this.overlap = new Overlap(P, space.Wr);
    this.search = new PatchSearch(space, P, rng);
    this.err = new Float64Array(P * P);
    this.take = new Uint8Array(P * P);
  }

  /** The patches of the first pass and of the re-synthesis (`repair`), for progress. */
  patchCount(repair: boolean): { first: number; redo: number } {
    const cells = this.nx * this.ny;
    return { first: cells, redo: repair && cells > 1 ? Math.ceil(REDO_SHARE * cells) : 0 };
  }

  /** Every patch once, row by row; `onPlaced` after each. */
  placeAll(onPlaced: () => void): void {
    for (let j = 0; j < this.ny; j++) {
      for (let i = 0; i < this.nx; i++) {
        this.place(i, j, false);
        onPlaced();
      }
    }
  }

  /**
   * The `count` patches whose cuts cost most per cut pair, against the reference's own gradient
   * energy `insideEnergy` (summed over channels), worst first, searched again; only those
   * clearly worse than the texture, and a new patch is kept only if its cuts cost less.
   * `onPlaced` after each of the `count`.
   */
  redoWorst(count: number, insideEnergy: number, onPlaced: () => void): void {
    const { canvas, window, nx } = this;
    const { xs, ys } = this.plan;
    const { Wr } = this.space;
    const ranked: { cell: number; cost: number }[] = [];
    for (let cell = 0; cell < nx * this.ny; cell++) {
      window.moveTo(canvas, xs[cell % nx]!, ys[Math.floor(cell / nx)]!);
      const { sum, pairs } = windowCutCost(canvas, window, Wr);
      ranked.push({ cell, cost: pairs > 0 ? sum / pairs / insideEnergy : 0 });
    }
    ranked.sort((a, b) => b.cost - a.cost || a.cell - b.cell);
    for (let k = 0; k < count; k++) {
      const entry = ranked[k]!;
      if (entry.cost > REDO_ABOVE) this.retry(entry.cell, (w) => windowCutCost(canvas, w, Wr).sum);
      onPlaced();
    }
  }

  /**
   * Searches the patch of `cell` again, held on all four sides, and keeps it only if `score` of
   * its window (lower is better) falls; otherwise the window is put back as it was. `avoidOwn`:
   * the search leaves out the neighbourhood of the cell's present source (else it may well find
   * the same patch again).
   */
  retry(cell: number, score: (window: PatchWindow) => number, avoidOwn = false): boolean {
    const { canvas, window, srcX, srcY, nx } = this;
    const i = cell % nx;
    const j = Math.floor(cell / nx);
    window.moveTo(canvas, this.plan.xs[i]!, this.plan.ys[j]!);
    const before = score(window);
    this.saved = saveWindow(canvas, window, this.saved);
    const [keptX, keptY] = [srcX[cell]!, srcY[cell]!];
    this.place(i, j, true, avoidOwn);
    if (score(window) < before) return true;
    restoreWindow(canvas, window, this.saved);
    srcX[cell] = keptX;
    srcY[cell] = keptY;
    return false;
  }

  /**
   * Searches a patch again in the window centred on output pixel (x, y), off the grid: a cut in
   * the band where two grid windows overlap lies in the held frame of both, so no retry of a
   * grid cell can move it. Held on all four sides, kept only if `score` of the window falls;
   * not on a canvas with a fixed frame (a series' shared edges must stay as they are).
   */
  retryAt(x: number, y: number, score: (window: PatchWindow) => number): boolean {
    const { canvas, window } = this;
    const { W, H, seamless, P, O, frame } = this.plan;
    if (frame > 0 || P > W || P > H) return false;
    const origin = (t: number, size: number) =>
      seamless
        ? wrapOrClip(t - Math.floor(P / 2), size, true)
        : Math.min(Math.max(t - Math.floor(P / 2), 0), size - P);
    window.moveTo(canvas, origin(x, W), origin(y, H));
    const before = score(window);
    this.saved = saveWindow(canvas, window, this.saved);
    clearCore(canvas, window, O);
    this.overlap.gather(canvas, window);
    // The copies the frame holds, continued inwards, are the likeliest fits; the core's own
    // source is left out (else the search may well find it again).
    const coherent: number[] = [];
    const avoid = this.earlierCopies(window.x0, window.y0);
    const { Wr } = this.space;
    const at = (u: number, v: number) => canvas.source[window.rowMap[v]! * W + window.colMap[u]!]!;
    for (const [u, v] of [
      [0, 0],
      [P - 1, 0],
      [0, P - 1],
      [P - 1, P - 1],
    ] as const) {
      const s = at(u, v);
      if (s >= 0) coherent.push((s % Wr) - u, Math.floor(s / Wr) - v);
    }
    const own = this.saved.source[Math.floor(P / 2) * P + Math.floor(P / 2)]!;
    if (own >= 0)
      avoid.push((own % Wr) - Math.floor(P / 2), Math.floor(own / Wr) - Math.floor(P / 2));
    this.pasteBest(
      { closing: true, coherent, avoid, pull: this.plan.pull * 0.1, reuse: undefined },
      { left: O, top: O, right: O, bottom: O },
    );
    if (score(window) < before) return true;
    restoreWindow(canvas, window, this.saved);
    return false;
  }

  /** The grid cell whose window is centred nearest to output pixel (x, y). */
  cellNear(x: number, y: number): number {
    const { W, H, seamless, P, xs, ys } = this.plan;
    const nearest = (t: number, starts: Int32Array, size: number) => {
      let best = 0;
      for (let k = 1; k < starts.length; k++) {
        const d = (s: number) => {
          const off = t - (s + (P - 1) / 2);
          return Math.abs(seamless ? torusDelta(off, size) : off);
        };
        if (d(starts[k]!) < d(starts[best]!)) best = k;
      }
      return best;
    };
    return nearest(y, ys, H) * this.nx + nearest(x, xs, W);
  }

  /**
   * Places the patch of grid cell (i, j): searches its source, cuts it against what is there
   * and pastes it. `again`: a re-synthesis, the patch held on all four sides by the `O`-wide
   * frame of its window (its core was cleared); `avoidOwn`: not near the source it has now.
   */
  private place(i: number, j: number, again: boolean, avoidOwn = false): void {
    const { canvas, window, overlap, srcX, srcY, nx, ny } = this;
    const { W, H, seamless, P, O, xs, ys } = this.plan;
    const x0 = xs[i]!;
    const y0 = ys[j]!;
    window.moveTo(canvas, x0, y0);
    if (again) clearCore(canvas, window, O);
    overlap.gather(canvas, window);

    // Patches closing the torus are held on three or four sides: they are searched harder and
    // the layout term holds them less (the reference's far side rarely fits there).
    const { frame } = this.plan;
    const closing =
      (seamless && (i === nx - 1 || j === ny - 1)) ||
      (frame > 0 && (i === 0 || j === 0 || i === nx - 1 || j === ny - 1));

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
    // A series' face cuts against face 1's frame but must not continue its copies inwards, nor
    // copy what an earlier face has here (it would repeat it): those positions are avoided.
    const avoid = this.earlierCopies(x0, y0);
    if (avoidOwn) avoid.push(srcX[j * nx + i]!, srcY[j * nx + i]!);

    // Where the layout term wants this patch: the reference, shifted by a seeded offset and
    // repeated (every W − P + 1 pixels, so that every patch position is a valid one), laid
    // under the output.
    const { pull } = this.plan;
    const { x: sx, y: sy } = this.pasteBest(
      {
        closing,
        coherent,
        avoid,
        pull: closing ? pull * 0.1 : pull,
        // Not for patches closing the torus: held on three or four sides, they need every source.
        reuse: closing ? undefined : reuseTerm(this.plan, srcX, srcY, i, j),
      },
      again
        ? { left: O, top: O, right: O, bottom: O }
        : {
            left: i > 0 ? xs[i - 1]! + P - x0 : Math.max(0, frame - x0),
            top: j > 0 ? ys[j - 1]! + P - y0 : Math.max(0, frame - y0),
            right:
              seamless && i === nx - 1 && nx > 1 ? x0 + P - W : Math.max(0, x0 + P - W + frame),
            bottom:
              seamless && j === ny - 1 && ny > 1 ? y0 + P - H : Math.max(0, y0 + P - H + frame),
          },
    );
    srcX[j * nx + i] = sx;
    srcY[j * nx + i] = sy;
  }

  /**
   * Searches the source for the window where it stands (its overlap gathered), then the
   * minimum-error boundary cuts on each overlapping side, combined, and the paste.
   */
  private pasteBest(
    query: Pick<PatchQuery, 'closing' | 'coherent' | 'avoid' | 'pull' | 'reuse'>,
    sides: { left: number; top: number; right: number; bottom: number },
  ): Candidate {
    const { canvas, window, overlap } = this;
    const { P } = this.plan;
    const { ref, grad: refGrad, structureWeight, Wr, nvx, nvy } = this.space;
    const chosen = this.search.choose({
      ...query,
      overlap,
      tx: (window.x0 + this.plan.offX) % nvx,
      ty: (window.y0 + this.plan.offY) % nvy,
      slack: this.plan.slack,
      // Not eased for closing patches: a phase slip across the grain shows as broken lines.
      grain: this.plan.grain,
      nearLayout: this.plan.nearLayout,
      temperature: this.plan.temperature,
      breakAwayChance: this.plan.breakAwayChance,
      avoidRadius: Math.ceil(P / 2),
    });
    overlapError(this.err, ref, refGrad, structureWeight, Wr, chosen.x, chosen.y, canvas, window);
    cutMask(this.take, this.err, sides, canvas, window);
    paste(canvas, window, this.take, ref, refGrad, Wr, chosen.x, chosen.y);
    return chosen;
  }

  /** Source positions of the patch that would repeat an earlier face's copies at (x0, y0). */
  private earlierCopies(x0: number, y0: number): number[] {
    const { W, H, P, avoidSources } = this.plan;
    const { Wr } = this.space;
    const avoid: number[] = [];
    const along = [0, Math.floor(P / 2), P - 1];
    for (const source of avoidSources) {
      for (const v of along) {
        for (const u of along) {
          if (x0 + u >= W || y0 + v >= H) continue;
          const s = source[(y0 + v) * W + x0 + u]!;
          if (s >= 0) avoid.push((s % Wr) - u, Math.floor(s / Wr) - v);
        }
      }
    }
    return avoid;
  }
}
