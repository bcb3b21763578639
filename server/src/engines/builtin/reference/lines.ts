/**
 * Straight line segments of a luminance picture: a Hough transform on its thinned edges, each
 * edge pixel voting only near its own gradient direction (so a tile joint votes for itself, not
 * for every line through it), then each peak walked along to find the segment the edges really
 * cover. Compact and sufficient for the long joints of a floor; nothing finer is needed here.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Numeric kernels over typed arrays: every index is in bounds by construction. */
import { quantile, sobel, type Grey } from './grey.js';

export interface Segment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** Direction of the segment, in radians, 0 ≤ angle < π. */
  angle: number;
  length: number;
}

const ANGLE_BINS = 180;
/** Distance bins are this many pixels wide: a joint's two edges, a pixel or two apart, share one. */
const RHO_STEP = 2;
/** An edge pixel votes for the angles within this many bins of its gradient's. */
const VOTE_SPREAD = 2;
/** Edges weaker than this share of the strongest (98th percentile) are noise. */
const EDGE_SHARE = 0.2;
/** ... and than this, in levels per pixel. */
const EDGE_FLOOR = 3;
/** Most peaks followed up, strongest first. */
const MAX_PEAKS = 80;
/** Along a segment, an edge pixel counts when its gradient is within this of the line's normal. */
const ALONG_TOLERANCE = (8 * Math.PI) / 180;

/**
 * The segments at least `minLength` pixels long, with gaps of at most `maxGap` pixels, at most
 * one per Hough peak, strongest peaks first.
 */
export function findSegments(grey: Grey, minLength: number, maxGap: number): Segment[] {
  const { width: W, height: H } = grey;
  const edges = thinEdges(grey);
  const cx = W / 2;
  const cy = H / 2;
  const maxRho = Math.ceil(Math.hypot(W, H) / 2 / RHO_STEP) + 2;
  const rhoBins = 2 * maxRho + 1;
  const votes = new Float32Array(ANGLE_BINS * rhoBins);
  const cos = Float64Array.from({ length: ANGLE_BINS }, (_, t) => Math.cos((t * Math.PI) / 180));
  const sin = Float64Array.from({ length: ANGLE_BINS }, (_, t) => Math.sin((t * Math.PI) / 180));
  for (const p of edges.pixels) {
    const x = (p % W) - cx;
    const y = Math.floor(p / W) - cy;
    const t0 = Math.round(edges.normal[p]! * (ANGLE_BINS / Math.PI));
    for (let dt = -VOTE_SPREAD; dt <= VOTE_SPREAD; dt++) {
      const t = (((t0 + dt) % ANGLE_BINS) + ANGLE_BINS) % ANGLE_BINS;
      // Split between the two nearest distance bins: a slanted line's pixels, rounded to the
      // grid, scatter by half a pixel about it, and would otherwise split its peak.
      const rho = (x * cos[t]! + y * sin[t]!) / RHO_STEP + maxRho;
      const low = Math.floor(rho);
      const share = rho - low;
      votes[t * rhoBins + low]! += 1 - share;
      votes[t * rhoBins + low + 1]! += share;
    }
  }

  const peaks: { t: number; r: number; votes: number }[] = [];
  // The walk measures each peak's real length; this only skips what cannot be long enough.
  const floor = Math.max(8, minLength * 0.3);
  for (let t = 0; t < ANGLE_BINS; t++) {
    for (let r = 0; r < rhoBins; r++) {
      const v = votes[t * rhoBins + r]!;
      if (v < floor || !isPeak(votes, t, r, rhoBins, v)) continue;
      peaks.push({ t, r: (r - maxRho) * RHO_STEP, votes: v });
    }
  }
  peaks.sort((a, b) => b.votes - a.votes);

  const segments: Segment[] = [];
  for (const peak of peaks.slice(0, MAX_PEAKS)) {
    const theta = (peak.t * Math.PI) / 180;
    const segment = walk(edges, W, H, theta, peak.r, maxGap);
    if (segment && segment.length >= minLength && !duplicate(segment, segments)) {
      segments.push(segment);
    }
  }
  return segments;
}

interface Edges {
  /** Indices of the edge pixels. */
  pixels: number[];
  isEdge: Uint8Array;
  /** The gradient's direction at each pixel, 0 ≤ normal < π (the line's normal). */
  normal: Float32Array;
}

/** Edge pixels: gradient maxima across the edge (thin lines), above the strength floors. */
function thinEdges(grey: Grey): Edges {
  const { width: W, height: H } = grey;
  const { gx, gy, magnitude } = sobel(grey);
  const threshold = Math.max(EDGE_FLOOR, EDGE_SHARE * quantile(magnitude, 0.98));
  const isEdge = new Uint8Array(W * H);
  const normal = new Float32Array(W * H);
  const pixels: number[] = [];
  for (let y = 2; y < H - 2; y++) {
    for (let x = 2; x < W - 2; x++) {
      const p = y * W + x;
      const m = magnitude[p]!;
      if (m < threshold) continue;
      const ux = gx[p]! / m;
      const uy = gy[p]! / m;
      const ahead = magnitude[Math.round(y + uy) * W + Math.round(x + ux)]!;
      const behind = magnitude[Math.round(y - uy) * W + Math.round(x - ux)]!;
      if (m < ahead || m < behind) continue;
      let a = Math.atan2(gy[p]!, gx[p]!);
      if (a < 0) a += Math.PI;
      if (a >= Math.PI) a -= Math.PI;
      normal[p] = a;
      isEdge[p] = 1;
      pixels.push(p);
    }
  }
  return { pixels, isEdge, normal };
}

/** A local maximum over ±3 angle bins and ±2 distance bins (ties broken by position). */
function isPeak(votes: Float32Array, t: number, r: number, rhoBins: number, v: number): boolean {
  for (let dt = -3; dt <= 3; dt++) {
    const tt = t + dt;
    if (tt < 0 || tt >= ANGLE_BINS) continue;
    for (let dr = -2; dr <= 2; dr++) {
      const rr = r + dr;
      if ((dt === 0 && dr === 0) || rr < 0 || rr >= rhoBins) continue;
      const u = votes[tt * rhoBins + rr]!;
      if (u > v || (u === v && (dt < 0 || (dt === 0 && dr < 0)))) return false;
    }
  }
  return true;
}

/**
 * Walks the line x cos θ + y sin θ = ρ (centred coordinates) across the picture and returns its
 * longest run of matching edge pixels with gaps of at most `maxGap`, or undefined.
 */
function walk(
  edges: Edges,
  W: number,
  H: number,
  theta: number,
  rho: number,
  maxGap: number,
): Segment | undefined {
  const nx = Math.cos(theta);
  const ny = Math.sin(theta);
  const dx = -ny;
  const dy = nx;
  const half = Math.hypot(W, H) / 2;
  let best: { from: number; to: number } | undefined;
  // The run under way: where it began and its last edge pixel (s along the line).
  let run: { from: number; last: number } | undefined;
  const close = () => {
    if (run && (!best || run.last - run.from > best.to - best.from)) {
      best = { from: run.from, to: run.last };
    }
  };
  for (let s = -half; s <= half; s += 1) {
    const x = W / 2 + rho * nx + s * dx;
    const y = H / 2 + rho * ny + s * dy;
    if (x < 0 || y < 0 || x >= W || y >= H) continue;
    if (!edgeNear(edges, W, H, x, y, nx, ny, theta)) continue;
    if (run && s - run.last <= maxGap) {
      run.last = s;
      continue;
    }
    close();
    run = { from: s, last: s };
  }
  close();
  if (!best) return undefined;
  const { from: a, to: b } = best;
  const x0 = W / 2 + rho * nx;
  const y0 = H / 2 + rho * ny;
  let angle = Math.atan2(dy, dx);
  if (angle < 0) angle += Math.PI;
  if (angle >= Math.PI) angle -= Math.PI;
  return {
    x1: x0 + a * dx,
    y1: y0 + a * dy,
    x2: x0 + b * dx,
    y2: y0 + b * dy,
    angle,
    length: b - a,
  };
}

/** An edge pixel within a pixel of (x, y) across the line, whose gradient is the line's normal. */
function edgeNear(
  edges: Edges,
  W: number,
  H: number,
  x: number,
  y: number,
  nx: number,
  ny: number,
  theta: number,
): boolean {
  for (const off of [0, -1, 1]) {
    const px = Math.round(x + off * nx);
    const py = Math.round(y + off * ny);
    if (px < 0 || py < 0 || px >= W || py >= H) continue;
    const p = py * W + px;
    if (!edges.isEdge[p]) continue;
    const diff = Math.abs(edges.normal[p]! - theta);
    if (Math.min(diff, Math.PI - diff) <= ALONG_TOLERANCE) return true;
  }
  return false;
}

/** Another peak of the same edge: nearly the same direction, and its middle on the other. */
function duplicate(segment: Segment, kept: readonly Segment[]): boolean {
  const mx = (segment.x1 + segment.x2) / 2;
  const my = (segment.y1 + segment.y2) / 2;
  return kept.some((other) => {
    const diff = Math.abs(other.angle - segment.angle);
    if (Math.min(diff, Math.PI - diff) > (3 * Math.PI) / 180) return false;
    const ox = Math.cos(other.angle);
    const oy = Math.sin(other.angle);
    const distance = Math.abs((mx - other.x1) * oy - (my - other.y1) * ox);
    return distance < 3;
  });
}
