import { solve } from 'ml-matrix';

/** A point in pixels, x to the right and y down. */
export interface Point {
  x: number;
  y: number;
}

/** Four corners in the order top-left, top-right, bottom-right, bottom-left. */
export type Quad = readonly [Point, Point, Point, Point];

/** A 3 × 3 projective map, row by row, its last entry 1. */
export type Homography = readonly number[];

/**
 * The projective map taking each corner of `from` to the same corner of `to` (the direct linear
 * transform with h₃₃ = 1: eight equations, eight unknowns, solved by ml-matrix).
 */
export function homography(from: Quad, to: Quad): Homography {
  const rows: number[][] = [];
  const rhs: number[][] = [];
  for (let k = 0; k < 4; k++) {
    const { x, y } = from[k] as Point;
    const { x: u, y: v } = to[k] as Point;
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    rhs.push([u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    rhs.push([v]);
  }
  const h = solve(rows, rhs).getColumn(0);
  if (h.some((value) => !Number.isFinite(value))) throw new RangeError('Degenerate quadrilateral');
  return [...h, 1];
}

/** Where `h` takes `p`. */
export function project(h: Homography, p: Point): Point {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, i = 0, j = 1] = h;
  const w = g * p.x + i * p.y + j;
  return { x: (a * p.x + b * p.y + c) / w, y: (d * p.x + e * p.y + f) / w };
}

/** The rectangle `width` × `height` as a quad, corners at the pixels' outer edges. */
export function rectangle(width: number, height: number): Quad {
  return [
    { x: 0, y: 0 },
    { x: width, y: 0 },
    { x: width, y: height },
    { x: 0, y: height },
  ];
}

/**
 * A camera's focal length in units of its picture's long side when the quad cannot tell it: about
 * a 60° field of view across, a phone's or a standard lens's.
 */
const USUAL_FOCAL = 0.87;

/**
 * The width over the height of the real rectangle that `quad` shows, from a pinhole camera whose
 * principal point is the picture's centre (Zhang and He, "Whiteboard scanning and image
 * enhancement", 2007): a floor tile seen at an angle is foreshortened, and this undoes it. The
 * focal length comes from the quad's two vanishing points; with one of them at infinity (a camera
 * only tilted down: the tile's cross joints stay level) it cannot, and a usual one stands in.
 */
export function rectifiedAspect(quad: Quad, imageWidth: number, imageHeight: number): number {
  const [tl, tr, br, bl] = quad;
  const cx = imageWidth / 2;
  const cy = imageHeight / 2;
  // Homogeneous corners about the principal point: m1 top-left, m2 top-right, m3 bottom-left,
  // m4 bottom-right, as the paper names them.
  const m = (p: Point) => [p.x - cx, p.y - cy, 1] as const;
  const [m1, m2, m3, m4] = [m(tl), m(tr), m(bl), m(br)];
  const k2 = dot(cross(m1, m4), m3) / dot(cross(m2, m4), m3);
  const k3 = dot(cross(m1, m4), m2) / dot(cross(m3, m4), m2);
  const n2 = m2.map((value, i) => k2 * value - (m1[i] ?? 0));
  const n3 = m3.map((value, i) => k3 * value - (m1[i] ?? 0));
  const [n2x = 0, n2y = 0, n2z = 0] = n2;
  const [n3x = 0, n3y = 0, n3z = 0] = n3;
  const long = Math.max(imageWidth, imageHeight);
  // n₂ and n₃ point at the two vanishing points: one farther than 20 long sides is at infinity.
  const finite = (x: number, y: number, z: number) => Math.abs(z) * 20 * long > Math.hypot(x, y);
  const estimated = -(n2x * n3x + n2y * n3y) / (n2z * n3z);
  // A focal length from 0.3 to 6 long sides is a camera's; anything else is the formula failing.
  const plausible =
    finite(n2x, n2y, n2z) &&
    finite(n3x, n3y, n3z) &&
    estimated >= (0.3 * long) ** 2 &&
    estimated <= (6 * long) ** 2;
  const f2 = plausible ? estimated : (USUAL_FOCAL * long) ** 2;
  const weigh = (n: readonly number[]) =>
    ((n[0] ?? 0) ** 2 + (n[1] ?? 0) ** 2) / f2 + (n[2] ?? 0) ** 2;
  const aspect = Math.sqrt(weigh(n2) / weigh(n3));
  if (Number.isFinite(aspect) && aspect > 0) return aspect;
  // A degenerate quad: its mean side lengths are all there is.
  const width = (distance(tl, tr) + distance(bl, br)) / 2;
  const height = (distance(tl, bl) + distance(tr, br)) / 2;
  return width / height;
}

/**
 * The pixel size of the straightened picture: as wide as the quad's longer horizontal side, as
 * high as the aspect says, then brought within `maxSide` (and to at least 16 px a side).
 */
export function rectifiedSize(
  quad: Quad,
  imageWidth: number,
  imageHeight: number,
  maxSide: number,
): { width: number; height: number } {
  const [tl, tr, br, bl] = quad;
  const aspect = rectifiedAspect(quad, imageWidth, imageHeight);
  let width = Math.max(distance(tl, tr), distance(bl, br));
  let height = width / aspect;
  const scale = Math.min(1, maxSide / Math.max(width, height));
  width *= scale;
  height *= scale;
  return { width: Math.max(16, Math.round(width)), height: Math.max(16, Math.round(height)) };
}

function cross(a: readonly number[], b: readonly number[]): number[] {
  const [a0 = 0, a1 = 0, a2 = 0] = a;
  const [b0 = 0, b1 = 0, b2 = 0] = b;
  return [a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0];
}

function dot(a: readonly number[], b: readonly number[]): number {
  return (a[0] ?? 0) * (b[0] ?? 0) + (a[1] ?? 0) * (b[1] ?? 0) + (a[2] ?? 0) * (b[2] ?? 0);
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** A quad whose corners go round one way and whose sides do not cross: one that can be warped. */
export function isConvex(quad: Quad): boolean {
  let sign = 0;
  for (let k = 0; k < 4; k++) {
    const a = quad[k] as Point;
    const b = quad[(k + 1) % 4] as Point;
    const c = quad[(k + 2) % 4] as Point;
    const z = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
    if (Math.abs(z) < 1e-9) return false;
    if (sign === 0) sign = Math.sign(z);
    else if (Math.sign(z) !== sign) return false;
  }
  return true;
}
