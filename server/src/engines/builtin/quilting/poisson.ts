/**
 * Gradient-domain (Poisson) blending of the quilted image: the colour step left across each cut
 * is spread out smoothly instead of showing as an edge.
 *
 * Every pixel knows the reference pixel it was copied from. Between two neighbours copied from
 * neighbouring reference pixels the wanted difference is the reference's own; across a cut it is
 * the mean of the two sources' differences at that place (what either patch would show there).
 * The result is the image whose differences come closest to the wanted ones, held to the copied
 * colours by a weak screening term that lets a correction fade out over about half a patch (so
 * colours cannot drift far). Solved for the correction to the copied colours, per channel, by
 * conjugate gradients preconditioned with an aggregation multigrid V-cycle, on the torus when
 * the image is seamless (so it still tiles).
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction (see options.ts). */

/** Relative residual at which the solve stops, and its iteration bound. */
const TOLERANCE = 2e-2;
const MAX_ITERATIONS = 12;
/** Grids this small are solved by plain relaxation. */
const COARSEST = 64;
/**
 * The coarse correction is added scaled up: a piecewise-constant one undershoots a smooth error.
 * Measured on six references (bench/seams.ts' set, seamless): 1.3 stops at the same tolerance
 * after 3 iterations where 1 needed 4, and nearer the exact solution (mean error 0.57 levels of
 * 255 against 0.75). The preconditioner stays symmetric (the scale is a constant).
 */
const COARSE_SCALE = 1.3;

interface Level {
  w: number;
  h: number;
  wrapX: boolean;
  wrapY: boolean;
  /** Weight of the edge from cell i to its right neighbour, and to the one below. */
  ex: Float32Array;
  ey: Float32Array;
  /** Screening weight per cell, and the diagonal (screening plus incident edge weights). */
  s: Float32Array;
  diag: Float32Array;
  /** Scratch of the V-cycle (three interleaved channels): right-hand side (unused on the finest level), result. */
  rhs: Float32Array;
  v: Float32Array;
}

export interface PoissonInput {
  /** The reference quilted from (RGBA) and its width. */
  ref: Uint8Array;
  Wr: number;
  Hr: number;
  /** Per output pixel, its reference pixel (y · Wr + x). */
  source: Int32Array;
  W: number;
  H: number;
  seamless: boolean;
  /** Length in pixels over which a correction fades out. */
  reach: number;
}

/** The blended colours, per channel (c · W · H + y · W + x), not rounded. */
export function poissonBlend(input: PoissonInput): Float32Array[] {
  const { ref, Wr, Hr, source, W, H, seamless, reach } = input;
  const N = W * H;
  const eps = 1 / (reach * reach);
  // Copied colours, and the right-hand side from the wanted differences across the cuts (three
  // channels interleaved).
  const copied = new Float32Array(N * 3);
  for (let i = 0; i < N; i++) {
    const s = source[i]! * 4;
    copied[i * 3] = ref[s]!;
    copied[i * 3 + 1] = ref[s + 1]!;
    copied[i * 3 + 2] = ref[s + 2]!;
  }
  const b = new Float32Array(N * 3);
  let any = false;
  /** Across a cut from p to q: the mean of both sources' own differences there. */
  const cut = (p: number, q: number, step: number, horizontal: boolean): void => {
    const sp = source[p]!;
    const sq = source[q]!;
    const xp = sp % Wr;
    const xq = sq % Wr;
    const fromP = horizontal ? xp + 1 < Wr : sp + Wr < Wr * Hr;
    const fromQ = horizontal ? xq > 0 : sq - Wr >= 0;
    const n = (fromP ? 1 : 0) + (fromQ ? 1 : 0);
    for (let c = 0; c < 3; c++) {
      let wanted = 0;
      if (fromP) wanted += ref[(sp + step) * 4 + c]! - ref[sp * 4 + c]!;
      if (fromQ) wanted += ref[sq * 4 + c]! - ref[(sq - step) * 4 + c]!;
      if (n > 0) wanted /= n;
      const r = wanted - (copied[q * 3 + c]! - copied[p * 3 + c]!);
      b[p * 3 + c] = b[p * 3 + c]! - r;
      b[q * 3 + c] = b[q * 3 + c]! + r;
    }
    any = true;
  };
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const p = y * W + x;
      const sp = source[p]!;
      if (x + 1 < W || seamless) {
        const q = y * W + ((x + 1) % W);
        if (source[q] !== sp + 1 || sp % Wr === Wr - 1) cut(p, q, 1, true);
      }
      if (y + 1 < H || seamless) {
        const q = ((y + 1) % H) * W + x;
        if (source[q] !== sp + Wr) cut(p, q, Wr, false);
      }
    }
  }
  if (any) {
    const correction = pcg(hierarchy(W, H, seamless, eps), b);
    for (let i = 0; i < N * 3; i++) copied[i] = copied[i]! + correction[i]!;
  }
  return [0, 1, 2].map((c) => {
    const channel = new Float32Array(N);
    for (let i = 0; i < N; i++) channel[i] = copied[i * 3 + c]!;
    return channel;
  });
}

function hierarchy(W: number, H: number, wrap: boolean, eps: number): Level[] {
  const N = W * H;
  // Every edge weighs 1, but those leaving the image when it does not wrap.
  const ex = new Float32Array(N).fill(W > 1 ? 1 : 0);
  const ey = new Float32Array(N).fill(H > 1 ? 1 : 0);
  if (!wrap) {
    for (let y = 0; y < H; y++) ex[y * W + W - 1] = 0;
    ey.fill(0, (H - 1) * W);
  }
  const levels = [
    level(W, H, wrap && W > 1, wrap && H > 1, ex, ey, new Float32Array(N).fill(eps), true),
  ];
  for (;;) {
    const f = levels[levels.length - 1]!;
    if (f.w * f.h <= COARSEST || (f.w === 1 && f.h === 1)) break;
    const cw = Math.ceil(f.w / 2);
    const ch = Math.ceil(f.h / 2);
    const cex = new Float32Array(cw * ch);
    const cey = new Float32Array(cw * ch);
    const cs = new Float32Array(cw * ch);
    for (let y = 0; y < f.h; y++) {
      for (let x = 0; x < f.w; x++) {
        const i = y * f.w + x;
        const X = x >> 1;
        const Y = y >> 1;
        const I = Y * cw + X;
        cs[I] = cs[I]! + f.s[i]!;
        if (f.ex[i]! > 0 && ((x + 1) % f.w) >> 1 !== X) cex[I] = cex[I]! + f.ex[i]!;
        if (f.ey[i]! > 0 && ((y + 1) % f.h) >> 1 !== Y) cey[I] = cey[I]! + f.ey[i]!;
      }
    }
    levels.push(level(cw, ch, f.wrapX && cw > 1, f.wrapY && ch > 1, cex, cey, cs));
  }
  return levels;
}

function level(
  w: number,
  h: number,
  wrapX: boolean,
  wrapY: boolean,
  ex: Float32Array,
  ey: Float32Array,
  s: Float32Array,
  fine = false,
): Level {
  const diag = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const left = x > 0 ? i - 1 : i + w - 1;
      const up = y > 0 ? i - w : i + (h - 1) * w;
      diag[i] = s[i]! + ex[i]! + ex[left]! + ey[i]! + ey[up]!;
    }
  }
  return {
    w,
    h,
    wrapX,
    wrapY,
    ex,
    ey,
    s,
    diag,
    rhs: new Float32Array(fine ? 0 : w * h * 3),
    v: new Float32Array(w * h * 3),
  };
}

/**
 * One Gauss–Seidel sweep over the three interleaved channels of `v` (forward or backward, so
 * that a forward sweep before and a backward one after make a symmetric V-cycle).
 */
function relax(l: Level, v: Float32Array, b: Float32Array, forward: boolean): void {
  const { w, h, ex, ey, diag } = l;
  for (let k = 0; k < h; k++) {
    const y = forward ? k : h - 1 - k;
    const row = y * w;
    const downRow = y + 1 < h ? row + w : 0;
    const upRow = y > 0 ? row - w : (h - 1) * w;
    for (let m = 0; m < w; m++) {
      const x = forward ? m : w - 1 - m;
      const i = row + x;
      const right = x + 1 < w ? i + 1 : row;
      const left = x > 0 ? i - 1 : row + w - 1;
      const down = downRow + x;
      const up = upRow + x;
      const wr = ex[i]!;
      const wl = ex[left]!;
      const wd = ey[i]!;
      const wu = ey[up]!;
      const inv = 1 / diag[i]!;
      const i3 = i * 3;
      const r3 = right * 3;
      const l3 = left * 3;
      const d3 = down * 3;
      const u3 = up * 3;
      v[i3] = (b[i3]! + wr * v[r3]! + wl * v[l3]! + wd * v[d3]! + wu * v[u3]!) * inv;
      v[i3 + 1] =
        (b[i3 + 1]! + wr * v[r3 + 1]! + wl * v[l3 + 1]! + wd * v[d3 + 1]! + wu * v[u3 + 1]!) * inv;
      v[i3 + 2] =
        (b[i3 + 2]! + wr * v[r3 + 2]! + wl * v[l3 + 2]! + wd * v[d3 + 2]! + wu * v[u3 + 2]!) * inv;
    }
  }
}

/** out = A v, the operator of level l on three interleaved channels. */
function apply(l: Level, v: Float32Array, out: Float32Array): void {
  const { w, h, ex, ey, diag } = l;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    const downRow = y + 1 < h ? row + w : 0;
    const upRow = y > 0 ? row - w : (h - 1) * w;
    for (let x = 0; x < w; x++) {
      const i = row + x;
      const right = x + 1 < w ? i + 1 : row;
      const left = x > 0 ? i - 1 : row + w - 1;
      const down = downRow + x;
      const up = upRow + x;
      const wr = ex[i]!;
      const wl = ex[left]!;
      const wd = ey[i]!;
      const wu = ey[up]!;
      const d = diag[i]!;
      const i3 = i * 3;
      const r3 = right * 3;
      const l3 = left * 3;
      const d3 = down * 3;
      const u3 = up * 3;
      out[i3] = d * v[i3]! - wr * v[r3]! - wl * v[l3]! - wd * v[d3]! - wu * v[u3]!;
      out[i3 + 1] =
        d * v[i3 + 1]! - wr * v[r3 + 1]! - wl * v[l3 + 1]! - wd * v[d3 + 1]! - wu * v[u3 + 1]!;
      out[i3 + 2] =
        d * v[i3 + 2]! - wr * v[r3 + 2]! - wl * v[l3 + 2]! - wd * v[d3 + 2]! - wu * v[u3 + 2]!;
    }
  }
}

/**
 * One symmetric V-cycle from zero: an approximate inverse of level k's operator applied to b,
 * into the level's scratch `v` (valid until the next cycle).
 */
function vcycle(levels: Level[], k: number, b: Float32Array): Float32Array {
  const l = levels[k]!;
  const { v } = l;
  v.fill(0);
  if (k === levels.length - 1) {
    for (let sweep = 0; sweep < 20; sweep++) {
      relax(l, v, b, true);
      relax(l, v, b, false);
    }
    return v;
  }
  relax(l, v, b, true);
  const c = levels[k + 1]!;
  const rc = c.rhs;
  restrictResidual(l, v, b, c.w, rc);
  const vc = vcycle(levels, k + 1, rc);
  for (let y = 0, i = 0; y < l.h; y++) {
    const Y = (y >> 1) * c.w;
    for (let x = 0; x < l.w; x++, i++) {
      const I = (Y + (x >> 1)) * 3;
      for (let ch = 0; ch < 3; ch++) v[i * 3 + ch] = v[i * 3 + ch]! + COARSE_SCALE * vc[I + ch]!;
    }
  }
  relax(l, v, b, false);
  return v;
}

/**
 * The residual b − A v of level l summed into the coarse cells (`rc`, `cw` wide), in one pass:
 * the residual is never stored.
 */
function restrictResidual(
  l: Level,
  v: Float32Array,
  b: Float32Array,
  cw: number,
  rc: Float32Array,
): void {
  const { w, h, ex, ey, diag } = l;
  rc.fill(0);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    const downRow = y + 1 < h ? row + w : 0;
    const upRow = y > 0 ? row - w : (h - 1) * w;
    const Y = (y >> 1) * cw;
    for (let x = 0; x < w; x++) {
      const i = row + x;
      const right = x + 1 < w ? i + 1 : row;
      const left = x > 0 ? i - 1 : row + w - 1;
      const wr = ex[i]!;
      const wl = ex[left]!;
      const wd = ey[i]!;
      const wu = ey[upRow + x]!;
      const d = diag[i]!;
      const i3 = i * 3;
      const r3 = right * 3;
      const l3 = left * 3;
      const d3 = (downRow + x) * 3;
      const u3 = (upRow + x) * 3;
      const I = (Y + (x >> 1)) * 3;
      // Rounded to float32 as a stored residual would be, so the result does not change.
      const a0 = Math.fround(d * v[i3]! - wr * v[r3]! - wl * v[l3]! - wd * v[d3]! - wu * v[u3]!);
      const a1 = Math.fround(
        d * v[i3 + 1]! - wr * v[r3 + 1]! - wl * v[l3 + 1]! - wd * v[d3 + 1]! - wu * v[u3 + 1]!,
      );
      const a2 = Math.fround(
        d * v[i3 + 2]! - wr * v[r3 + 2]! - wl * v[l3 + 2]! - wd * v[d3 + 2]! - wu * v[u3 + 2]!,
      );
      rc[I] = rc[I]! + b[i3]! - a0;
      rc[I + 1] = rc[I + 1]! + b[i3 + 1]! - a1;
      rc[I + 2] = rc[I + 2]! + b[i3 + 2]! - a2;
    }
  }
}

/** Preconditioned conjugate gradients on the finest level (three channels at once). */
function pcg(levels: Level[], b: Float32Array): Float32Array {
  const l = levels[0]!;
  const n = l.w * l.h * 3;
  const x = new Float32Array(n);
  const r = Float32Array.from(b);
  const ap = new Float32Array(n);
  const bNorm = Math.sqrt(dot(b, b));
  if (bNorm === 0) return x;
  const p = Float32Array.from(vcycle(levels, 0, r));
  let rz = dot(r, p);
  for (let it = 0; it < MAX_ITERATIONS; it++) {
    apply(l, p, ap);
    const alpha = rz / dot(p, ap);
    let rr = 0;
    for (let i = 0; i < n; i++) {
      x[i] = x[i]! + alpha * p[i]!;
      const ri = r[i]! - alpha * ap[i]!;
      r[i] = ri;
      rr += ri * ri;
    }
    if (Math.sqrt(rr) < TOLERANCE * bNorm) break;
    const z = vcycle(levels, 0, r);
    const rzNext = dot(r, z);
    const beta = rzNext / rz;
    rz = rzNext;
    for (let i = 0; i < n; i++) p[i] = z[i]! + beta * p[i]!;
  }
  return x;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
