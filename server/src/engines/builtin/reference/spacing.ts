/**
 * Receding spacing: the joints of a floor that run across the view (brick rows, the tiles'
 * cross joints) stay parallel in a photo at an angle, but their spacing shrinks steadily towards
 * the far end (evenly spaced lines on a plane, seen in perspective). Seen from above they are
 * evenly spaced. This finds the largest family of parallel segments and measures how their
 * spacing changes across the family.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Indices over arrays are in bounds by construction. */
import type { Segment } from './lines.js';

/** Segments within this angle of each other are one family. */
const PARALLEL = (2 * Math.PI) / 180;
/** Lines closer than this (pixels) are one joint seen twice... */
const SAME_LINE = 3;
/** ... and so are lines closer than this share of both neighbouring gaps. */
const NARROW_SHARE = 0.4;

export interface Spacing {
  /** Distinct parallel lines in the largest family. */
  lines: number;
  /** Mean gap of the wider half over the mean gap of the narrower half (≥ 1). */
  ratio: number;
  /** Spearman's rank correlation of the gaps with their position, its magnitude (0..1). */
  steadiness: number;
}

export function recedingSpacing(segments: readonly Segment[]): Spacing {
  let family: Segment[] = [];
  for (const segment of segments) {
    const members = segments.filter((other) => angleBetween(other, segment) <= PARALLEL);
    if (members.length > family.length) family = members;
  }
  const none = { lines: family.length, ratio: 1, steadiness: 0 };
  if (family.length < 2) return none;
  const normal = family[0]!.angle + Math.PI / 2;
  const offsets = family
    .map((s) => ((s.x1 + s.x2) / 2) * Math.cos(normal) + ((s.y1 + s.y2) / 2) * Math.sin(normal))
    .sort((a, b) => a - b);
  // A joint's two edges (a mortar line is a band) are one line: a gap much narrower than both
  // its neighbours is closed (in perspective, neighbouring gaps differ only a little).
  const rawGaps = offsets.slice(1).map((offset, k) => offset - offsets[k]!);
  const lines: number[] = [offsets[0]!];
  rawGaps.forEach((gap, k) => {
    const neighbours = Math.min(rawGaps[k - 1] ?? Infinity, rawGaps[k + 1] ?? Infinity);
    if (gap > SAME_LINE && gap >= NARROW_SHARE * neighbours) lines.push(offsets[k + 1]!);
  });
  // Four gaps at least, to tell a steady change from chance.
  if (lines.length < 5) return { ...none, lines: lines.length };
  const gaps = lines.slice(1).map((line, k) => line - lines[k]!);
  const half = Math.floor(gaps.length / 2);
  const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
  const first = mean(gaps.slice(0, half));
  const last = mean(gaps.slice(gaps.length - half));
  return {
    lines: lines.length,
    ratio: Math.max(first, last) / Math.min(first, last),
    steadiness: Math.abs(spearman(gaps)),
  };
}

function angleBetween(a: Segment, b: Segment): number {
  const diff = Math.abs(a.angle - b.angle);
  return Math.min(diff, Math.PI - diff);
}

/** Spearman's rank correlation of `values` with their order (ties share their mean rank). */
function spearman(values: readonly number[]): number {
  const n = values.length;
  const ranks = rank(values);
  const order = values.map((_, k) => k + 1);
  const mean = (n + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let k = 0; k < n; k++) {
    sxy += (order[k]! - mean) * (ranks[k]! - mean);
    sxx += (order[k]! - mean) ** 2;
    syy += (ranks[k]! - mean) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
}

function rank(values: readonly number[]): number[] {
  const indexed = values
    .map((value, index) => ({ value, index }))
    .sort((a, b) => a.value - b.value);
  const ranks = new Array<number>(values.length);
  for (let i = 0; i < indexed.length;) {
    let j = i;
    while (j + 1 < indexed.length && indexed[j + 1]!.value === indexed[i]!.value) j++;
    for (let k = i; k <= j; k++) ranks[indexed[k]!.index] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return ranks;
}
