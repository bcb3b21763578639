/**
 * The negative prompt's colours: how close a pixel is to one, the source pixels dominated by them
 * (which synthesis then does not copy), and the pull of what remains away from them.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction. */
import type { Lab, OklabPlanes } from './oklab.js';

/** A named colour with less chroma than this is a grey (white, black): told apart by lightness. */
const GREY_CHROMA = 0.04;
const DEG = Math.PI / 180;
/** Hue within this of a hued colour's counts fully, beyond `HUE_NONE` not at all (as cosines). */
const HUE_FULL = Math.cos(20 * DEG);
const HUE_NONE = Math.cos(45 * DEG);
/** How far (in hue) a pixel exactly of an avoided colour is turned away, and its chroma kept. */
const PULL_TURN = 50 * DEG;
const PULL_CHROMA = 0.5;
/** How far (in L) a pixel exactly of an avoided grey is moved away from its lightness. */
const PULL_LIGHTNESS = 0.15;

/** A colour to compare pixels with: its lightness, and its hue as a unit vector (or a grey). */
interface Reference {
  l: number;
  grey: boolean;
  ua: number;
  ub: number;
}

function reference(colour: Lab): Reference {
  const chroma = Math.hypot(colour.a, colour.b);
  const grey = chroma < GREY_CHROMA;
  return { l: colour.l, grey, ua: grey ? 0 : colour.a / chroma, ub: grey ? 0 : colour.b / chroma };
}

/**
 * How much the pixel (l, a, b) is of `colour`, 0..1. A hued colour: the pixel's hue within 20°
 * of it counts fully, fading to nothing at 45°, and only if the pixel has some chroma itself
 * (none below 0.03, fully from 0.07). A grey: a pixel of little chroma within 0.08 of its
 * lightness counts fully, fading to nothing at 0.2.
 */
export function closeness(l: number, a: number, b: number, colour: Lab): number {
  return closenessTo(l, a, b, reference(colour));
}

function closenessTo(l: number, a: number, b: number, r: Reference): number {
  const chroma = Math.sqrt(a * a + b * b);
  if (r.grey) {
    const grey = 1 - smoothstep((chroma - 0.03) / 0.04);
    return grey === 0 ? 0 : grey * (1 - smoothstep((Math.abs(l - r.l) - 0.08) / 0.12));
  }
  if (chroma <= 0.03) return 0;
  const cos = (a * r.ua + b * r.ub) / chroma;
  if (cos <= HUE_NONE) return 0;
  return smoothstep((chroma - 0.03) / 0.04) * smoothstep((cos - HUE_NONE) / (HUE_FULL - HUE_NONE));
}

/**
 * Source pixels dominated by the colours (1): those where more than half of a `window`-sided
 * square around them is of one of them (closeness ≥ ½), so that a patch covering one is mostly
 * that colour. Undefined if there is none.
 */
export function dominated(
  planes: OklabPlanes,
  colours: readonly Lab[],
  window: number,
): Uint8Array | undefined {
  const { l, a, b, width: W, height: H } = planes;
  const iw = W + 1;
  const integral = new Int32Array(iw * (H + 1));
  const refs = colours.map(reference);
  let any = false;
  for (let y = 0; y < H; y++) {
    let rowSum = 0;
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      let match = false;
      for (const r of refs) match ||= closenessTo(l[i]!, a[i]!, b[i]!, r) >= 0.5;
      if (match) {
        rowSum++;
        any = true;
      }
      integral[(y + 1) * iw + x + 1] = integral[y * iw + x + 1]! + rowSum;
    }
  }
  if (!any) return undefined;
  const half = Math.max(1, Math.floor(window / 2));
  const out = new Uint8Array(W * H);
  let found = false;
  for (let y = 0; y < H; y++) {
    const y0 = Math.max(0, y - half);
    const y1 = Math.min(H, y + half + 1);
    for (let x = 0; x < W; x++) {
      const x0 = Math.max(0, x - half);
      const x1 = Math.min(W, x + half + 1);
      const inside =
        integral[y1 * iw + x1]! -
        integral[y0 * iw + x1]! -
        integral[y1 * iw + x0]! +
        integral[y0 * iw + x0]!;
      if (2 * inside > (y1 - y0) * (x1 - x0)) {
        out[y * W + x] = 1;
        found = true;
      }
    }
  }
  return found ? out : undefined;
}

/**
 * Pulls the pixels near the colours away from them, in place, as far as they are near (their
 * closeness): a hued colour's pixels are turned away from its hue (up to 50°, towards the side
 * they are on) and lose up to half their chroma; a grey's are moved away from its lightness (up
 * to 0.15).
 */
export function pullAway(planes: OklabPlanes, colours: readonly Lab[]): void {
  const { l, a, b } = planes;
  for (const colour of colours) {
    const r = reference(colour);
    for (let i = 0; i < l.length; i++) {
      const w = closenessTo(l[i]!, a[i]!, b[i]!, r);
      if (w <= 0) continue;
      if (r.grey) {
        const up = l[i]! >= r.l ? l[i]! + PULL_LIGHTNESS * w <= 1 : l[i]! - PULL_LIGHTNESS * w < 0;
        l[i] = l[i]! + (up ? 1 : -1) * PULL_LIGHTNESS * w;
        continue;
      }
      // Turned away from the colour's hue, towards the side the pixel is on.
      const side = a[i]! * r.ub - b[i]! * r.ua >= 0 ? -1 : 1;
      const own = Math.atan2(b[i]!, a[i]!);
      const turned = own + side * PULL_TURN * w;
      const chroma = Math.hypot(a[i]!, b[i]!) * (1 - PULL_CHROMA * w);
      a[i] = chroma * Math.cos(turned);
      b[i] = chroma * Math.sin(turned);
    }
  }
}

function smoothstep(t: number): number {
  const x = t < 0 ? 0 : t > 1 ? 1 : t;
  return x * x * (3 - 2 * x);
}
