/**
 * The material's colours moved to a named colour in OKLab, keeping the texture's own variation:
 * the mean colour goes to the target, each pixel's difference from the mean is kept, turned by
 * the angle from the mean's hue to the target's (a shade lighter or paler than the mean stays
 * lighter or paler than the target) and scaled by the ratio of their chromas (a grey target
 * takes a vivid texture's colour noise down with it). Lightness: the mean goes to the target's,
 * the differences kept but squeezed where they would leave 0..1, so black and white stay in
 * range and a light target does not flatten the texture.
 *
 * Two colours named: a two-tone. The lighter colour takes the image's light parts, the darker
 * one its dark parts, blended smoothly across the mean luminance (± one standard deviation),
 * each part moved by its own statistics. More colours: the first two count.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction. */
import type { Lab, OklabPlanes } from './oklab.js';

/** Below this chroma a mean colour has no hue worth turning from. */
const HUELESS = 0.02;

/** How one group of pixels is moved: its mean onto the target. */
interface ColourMove {
  target: Lab;
  mean: Lab;
  cos: number;
  sin: number;
  chroma: number;
  darker: number;
  lighter: number;
}

function colourMove(mean: Lab, target: Lab): ColourMove {
  const meanChroma = Math.hypot(mean.a, mean.b);
  const targetChroma = Math.hypot(target.a, target.b);
  const turn =
    meanChroma > HUELESS && targetChroma > HUELESS
      ? Math.atan2(target.b, target.a) - Math.atan2(mean.b, mean.a)
      : 0;
  return {
    target,
    mean,
    cos: Math.cos(turn),
    sin: Math.sin(turn),
    chroma: clamp((targetChroma + HUELESS) / (meanChroma + HUELESS), 0.25, 1.25),
    darker: Math.min(1, target.l / Math.max(1e-3, mean.l)),
    lighter: Math.min(1, (1 - target.l) / Math.max(1e-3, 1 - mean.l)),
  };
}

/** Writes the moved colour of (l, a, b) into `out`. */
function move(m: ColourMove, l: number, a: number, b: number, out: Lab): void {
  const dl = l - m.mean.l;
  out.l = m.target.l + dl * (dl < 0 ? m.darker : m.lighter);
  const da = a - m.mean.a;
  const db = b - m.mean.b;
  out.a = m.target.a + m.chroma * (m.cos * da - m.sin * db);
  out.b = m.target.b + m.chroma * (m.sin * da + m.cos * db);
}

/**
 * Moves `planes` (in place) towards `targets` (one, or two for a two-tone; none: no change).
 * The statistics are taken over the pixels `counted` marks (1), all when undefined: the part
 * synthesis copies from.
 */
export function shiftColours(
  planes: OklabPlanes,
  targets: readonly Lab[],
  counted?: Uint8Array,
): void {
  const [first, second] = targets;
  if (!first) return;
  const { l, a, b } = planes;
  const n = l.length;
  const counts = (i: number) => !counted || counted[i] === 1;
  const overall = meanOf(planes, counts, () => 1);
  const out: Lab = { l: 0, a: 0, b: 0 };
  if (!second) {
    const m = colourMove(overall.mean, first);
    for (let i = 0; i < n; i++) {
      move(m, l[i]!, a[i]!, b[i]!, out);
      l[i] = out.l;
      a[i] = out.a;
      b[i] = out.b;
    }
    return;
  }
  const [dark, light] = first.l <= second.l ? [first, second] : [second, first];
  const spread = Math.max(0.02, overall.deviation);
  // The share of a pixel that belongs to the light part, by its lightness.
  const lightShare = (v: number) => smoothstep((v - overall.mean.l + spread) / (2 * spread));
  const darkMove = colourMove(meanOf(planes, counts, (v) => 1 - lightShare(v)).mean, dark);
  const lightMove = colourMove(meanOf(planes, counts, lightShare).mean, light);
  const other: Lab = { l: 0, a: 0, b: 0 };
  for (let i = 0; i < n; i++) {
    const w = lightShare(l[i]!);
    move(darkMove, l[i]!, a[i]!, b[i]!, out);
    move(lightMove, l[i]!, a[i]!, b[i]!, other);
    l[i] = out.l + w * (other.l - out.l);
    a[i] = out.a + w * (other.a - out.a);
    b[i] = out.b + w * (other.b - out.b);
  }
}

/** The weighted mean colour of the counted pixels, and the standard deviation of lightness. */
function meanOf(
  planes: OklabPlanes,
  counts: (i: number) => boolean,
  weight: (l: number) => number,
): { mean: Lab; deviation: number } {
  const { l, a, b } = planes;
  let sw = 0;
  let sl = 0;
  let sa = 0;
  let sb = 0;
  let sll = 0;
  for (let i = 0; i < l.length; i++) {
    if (!counts(i)) continue;
    const w = weight(l[i]!);
    sw += w;
    sl += w * l[i]!;
    sa += w * a[i]!;
    sb += w * b[i]!;
    sll += w * l[i]! * l[i]!;
  }
  if (!(sw > 0)) return { mean: { l: 0.5, a: 0, b: 0 }, deviation: 0 };
  const ml = sl / sw;
  return {
    mean: { l: ml, a: sa / sw, b: sb / sw },
    deviation: Math.sqrt(Math.max(0, sll / sw - ml * ml)),
  };
}

function smoothstep(t: number): number {
  const x = clamp(t, 0, 1);
  return x * x * (3 - 2 * x);
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}
