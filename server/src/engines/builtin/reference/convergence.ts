/**
 * Converging lines: a floor's parallel joints seen at an angle meet at a vanishing point, while
 * the joints of a texture seen from above stay parallel (their "vanishing point" is at infinity).
 * Every crossing of two segments is a candidate; a segment agrees with a candidate when the
 * direction from its middle to the point is its own direction, within a tolerance. The best
 * candidate is the one most segments agree with, counted only when they fan out (their
 * directions spread over some degrees): parallel joints agree with a far point but do not fan.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Indices over arrays are in bounds by construction. */
import type { Segment } from './lines.js';

/** A segment agrees with a point seen within this angle of its direction from its middle. */
const AGREEMENT = (1.5 * Math.PI) / 180;

export interface Convergence {
  /** How many segments meet at the best vanishing point (0 when fewer than 2 fan out). */
  lines: number;
  /** How far their directions spread, in degrees. */
  spreadDegrees: number;
  /** The point, in units of the picture's width and height (0..1 inside it), when found. */
  point?: { x: number; y: number };
}

/** The vanishing point most segments meet at, among those whose directions spread ≥ `minSpread`. */
export function findConvergence(
  segments: readonly Segment[],
  width: number,
  height: number,
  minSpreadDegrees: number,
): Convergence {
  let best: Convergence = { lines: 0, spreadDegrees: 0 };
  let bestWeight = 0;
  for (let i = 0; i < segments.length; i++) {
    for (let j = i + 1; j < segments.length; j++) {
      const point = crossing(segments[i]!, segments[j]!);
      if (!point) continue;
      const agreeing = segments.filter((s) => agrees(s, point));
      const spread = spreadOf(agreeing);
      if (spread < minSpreadDegrees) continue;
      const weight = agreeing.reduce((sum, s) => sum + s.length, 0);
      if (agreeing.length > best.lines || (agreeing.length === best.lines && weight > bestWeight)) {
        bestWeight = weight;
        best = {
          lines: agreeing.length,
          spreadDegrees: spread,
          point: { x: point.x / width, y: point.y / height },
        };
      }
    }
  }
  return best;
}

/** Where the two segments' lines cross; undefined when they are (nearly) parallel. */
function crossing(a: Segment, b: Segment): { x: number; y: number } | undefined {
  const ax = a.x2 - a.x1;
  const ay = a.y2 - a.y1;
  const bx = b.x2 - b.x1;
  const by = b.y2 - b.y1;
  const det = ax * by - ay * bx;
  if (Math.abs(det) < 1e-9 * Math.hypot(ax, ay) * Math.hypot(bx, by) + 1e-12) return undefined;
  const t = ((b.x1 - a.x1) * by - (b.y1 - a.y1) * bx) / det;
  return { x: a.x1 + t * ax, y: a.y1 + t * ay };
}

function agrees(segment: Segment, point: { x: number; y: number }): boolean {
  const mx = (segment.x1 + segment.x2) / 2;
  const my = (segment.y1 + segment.y2) / 2;
  const distance = Math.hypot(point.x - mx, point.y - my);
  // A point on the segment itself agrees with any direction: it says nothing.
  if (distance < segment.length / 2) return false;
  let toPoint = Math.atan2(point.y - my, point.x - mx);
  if (toPoint < 0) toPoint += Math.PI;
  if (toPoint >= Math.PI) toPoint -= Math.PI;
  const diff = Math.abs(toPoint - segment.angle);
  // A short segment's direction is less sure: a pixel at either end.
  const tolerance = Math.max(AGREEMENT, Math.atan(2 / segment.length));
  return Math.min(diff, Math.PI - diff) <= tolerance;
}

/** The spread of the segments' directions, in degrees: the smallest arc holding them all. */
function spreadOf(segments: readonly Segment[]): number {
  if (segments.length < 2) return 0;
  const angles = segments.map((s) => (s.angle * 180) / Math.PI).sort((a, b) => a - b);
  // Directions wrap at 180°: the spread is 180° less the widest gap between neighbours.
  let widestGap = angles[0]! + 180 - angles[angles.length - 1]!;
  for (let k = 1; k < angles.length; k++) {
    widestGap = Math.max(widestGap, angles[k]! - angles[k - 1]!);
  }
  return 180 - widestGap;
}
