/**
 * Photos made by the tests (issue 27, part 5): a tiled floor as a camera sees it, either from
 * above or from a person's height at an angle (a real projective view, with its vanishing point),
 * and references spoiled by a large object. Deterministic; 3 × 3 samples a pixel, as a lens
 * averages, so the far tiles blur instead of aliasing.
 */
import type { RawImage } from '../imaging/raw-image.js';
import { mulberry32 } from '../engines/builtin/prng.js';
import { clamp8 } from '../engines/builtin/test-references.js';

type Rgb = readonly [number, number, number];
/** A floor's colour at a point of the floor, in tile units. */
export type FloorTexture = (x: number, z: number) => Rgb;

/** Square tiles with grout joints, each tile its own shade, mottled: a typical tiled floor. */
export function tileFloor(seed = 11, base: Rgb = [176, 120, 92]): FloorTexture {
  const rng = mulberry32(seed);
  const shades = Float64Array.from({ length: 1024 }, () => rng.next() * 36 - 18);
  const grout = 0.06;
  return (x, z) => {
    const i = Math.floor(x);
    const j = Math.floor(z);
    const fx = x - i;
    const fz = z - j;
    if (fx < grout || fz < grout) return [205, 200, 190];
    const shade = shades[(i * 31 + j * 17) & 1023] ?? 0;
    const mottle = 10 * Math.sin(x * 11.3 + Math.sin(z * 7.1)) * Math.sin(z * 9.7 + x * 2.3);
    return [
      base[0] + shade + mottle,
      base[1] + shade * 0.8 + mottle,
      base[2] + shade * 0.6 + mottle,
    ];
  };
}

/** The texture of `image` laid on the floor, `tiles` floor units to the image's width, repeated. */
export function imageFloor(image: RawImage, unitsPerImage: number): FloorTexture {
  const { data, width, height } = image;
  return (x, z) => {
    const u = (((x / unitsPerImage) % 1) + 1) % 1;
    const v = (((z / unitsPerImage) % 1) + 1) % 1;
    const p = (Math.floor(v * height) * width + Math.floor(u * width)) * 4;
    return [data[p] ?? 0, data[p + 1] ?? 0, data[p + 2] ?? 0];
  };
}

export interface FloorView {
  width: number;
  height: number;
  /** How far the camera looks below the horizon, in degrees (90: straight down). */
  pitchDegrees: number;
  /** The vertical field of view, in degrees. */
  fovDegrees: number;
  /** The camera's height above the floor, in floor units. */
  cameraHeight: number;
}

/**
 * The floor as a pinhole camera at `cameraHeight` sees it, looking `pitchDegrees` down: lines
 * along the view converge towards a vanishing point above the picture, and the tiles shrink
 * towards its top. Every pixel's ray must meet the floor (the horizon above the picture).
 */
export function floorPhoto(texture: FloorTexture, view: FloorView): RawImage {
  if (view.pitchDegrees - view.fovDegrees / 2 <= 1) throw new RangeError('The horizon is in view');
  const { floorAt } = floorCamera(view);
  return render(view.width, view.height, (u, v) => {
    const { x, z } = floorAt(u, v);
    return texture(x, z);
  });
}

/**
 * The camera of {@link floorPhoto}: where a point of the picture (pixels) lies on the floor, and
 * where a point of the floor (floor units) shows in the picture.
 */
export function floorCamera(view: FloorView) {
  const { width: W, height: H, cameraHeight } = view;
  const pitch = (view.pitchDegrees * Math.PI) / 180;
  const focal = H / 2 / Math.tan((view.fovDegrees * Math.PI) / 360);
  // Camera axes in the world: right (1,0,0), up (0,cos,sin), forward (0,−sin,cos).
  const [cos, sin] = [Math.cos(pitch), Math.sin(pitch)];
  return {
    floorAt(u: number, v: number): { x: number; z: number } {
      const xc = (u - W / 2) / focal;
      const yc = (H / 2 - v) / focal;
      const dy = yc * cos - sin;
      const dz = yc * sin + cos;
      const t = cameraHeight / -dy;
      return { x: t * xc, z: t * dz };
    },
    pictureAt(x: number, z: number): { u: number; v: number } {
      const up = -cameraHeight * cos + z * sin;
      const ahead = cameraHeight * sin + z * cos;
      return { u: W / 2 + (focal * x) / ahead, v: H / 2 - (focal * up) / ahead };
    },
  };
}

/** The floor seen straight from above: `span` floor units across the picture's width. */
export function floorFromAbove(
  texture: FloorTexture,
  width: number,
  height: number,
  span: number,
): RawImage {
  const scale = span / width;
  return render(width, height, (u, v) => texture(u * scale, v * scale));
}

/** Each pixel the mean of 3 × 3 samples of `colourAt` over its area. */
function render(width: number, height: number, colourAt: (u: number, v: number) => Rgb): RawImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let j = 0; j < 3; j++) {
        for (let i = 0; i < 3; i++) {
          const [cr, cg, cb] = colourAt(x + (i + 0.5) / 3, y + (j + 0.5) / 3);
          r += cr;
          g += cg;
          b += cb;
        }
      }
      const p = (y * width + x) * 4;
      data[p] = clamp8(r / 9);
      data[p + 1] = clamp8(g / 9);
      data[p + 2] = clamp8(b / 9);
      data[p + 3] = 255;
    }
  }
  return { data, width, height };
}

/**
 * `image` with a large soft-edged disc painted over it (centre and radius in units of the short
 * side), its colour shifted by `shift` levels: a dark object below 0, a bright one above.
 */
export function withDisc(
  image: RawImage,
  centre: { x: number; y: number },
  radius: number,
  shift: number,
): RawImage {
  const { width, height } = image;
  const side = Math.min(width, height);
  const data = Uint8Array.from(image.data);
  const cx = centre.x * width;
  const cy = centre.y * height;
  const r = radius * side;
  const soft = Math.max(1, r * 0.08);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
      const w = Math.min(1, Math.max(0, (r - d) / soft));
      if (w === 0) continue;
      const p = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) data[p + c] = clamp8((data[p + c] ?? 0) + w * shift);
    }
  }
  return { data, width, height };
}

/** `image` under a strong side light: brighter by `levels` at one side than at the other. */
export function withSideLight(image: RawImage, levels: number): RawImage {
  const { width, height } = image;
  const data = Uint8Array.from(image.data);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const lift = levels * (x / (width - 1) - 0.5);
      const p = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) data[p + c] = clamp8((data[p + c] ?? 0) + lift);
    }
  }
  return { data, width, height };
}
