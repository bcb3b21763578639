import { describe, expect, it } from 'vitest';
import {
  homography,
  isConvex,
  project,
  rectangle,
  rectifiedAspect,
  rectifiedSize,
} from './homography';
import type { Point, Quad } from './homography';
import { crop, preparedName, warpQuad, type Pixels } from './pixels';

// The four-corner perspective correction (issue 27, part 5) on pictures made here: a marked
// rectangle seen through a camera at an angle, straightened back.

/**
 * A camera 5 units over the floor, looking `pitch` degrees down and turned `yaw` degrees: where a
 * floor point shows.
 */
function camera(width: number, height: number, pitchDegrees: number, yawDegrees = 0) {
  const pitch = (pitchDegrees * Math.PI) / 180;
  const yaw = (yawDegrees * Math.PI) / 180;
  const focal = height / 2 / Math.tan((45 * Math.PI) / 360);
  return (floorX: number, floorZ: number): Point => {
    const X = floorX * Math.cos(yaw) - floorZ * Math.sin(yaw);
    const Z = floorX * Math.sin(yaw) + floorZ * Math.cos(yaw);
    const yc = -5 * Math.cos(pitch) + Z * Math.sin(pitch);
    const zc = 5 * Math.sin(pitch) + Z * Math.cos(pitch);
    return { x: width / 2 + (focal * X) / zc, y: height / 2 - (focal * yc) / zc };
  };
}

const MARKS = [
  { at: { x: 20, y: 20 }, colour: [255, 0, 0] },
  { at: { x: 180, y: 20 }, colour: [0, 255, 0] },
  { at: { x: 180, y: 80 }, colour: [0, 0, 255] },
  { at: { x: 20, y: 80 }, colour: [255, 255, 0] },
] as const;

/** A 200 × 100 checker with a coloured disc near each corner, as a colour at a point. */
function markedRectangle(p: Point): number[] {
  for (const mark of MARKS) {
    if (Math.hypot(p.x - mark.at.x, p.y - mark.at.y) < 6) return [...mark.colour, 255];
  }
  const grey = (Math.floor(p.x / 25) + Math.floor(p.y / 25)) % 2 === 0 ? 90 : 170;
  return [grey, grey, grey, 255];
}

/** `colourAt` in the rectangle seen through the homography `to` (rectangle → picture), 3×3 samples a pixel. */
function photograph(quad: Quad, width: number, height: number): Pixels {
  const back = homography(quad, rectangle(200, 100));
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sum = [0, 0, 0, 0];
      for (let j = 0; j < 3; j++) {
        for (let i = 0; i < 3; i++) {
          const p = project(back, { x: x + (i + 0.5) / 3, y: y + (j + 0.5) / 3 });
          const inside = p.x >= 0 && p.y >= 0 && p.x < 200 && p.y < 100;
          const colour = inside ? markedRectangle(p) : [30, 30, 30, 255];
          colour.forEach((value, c) => (sum[c] = (sum[c] ?? 0) + value / 9));
        }
      }
      data.set(sum, (y * width + x) * 4);
    }
  }
  return { data, width, height };
}

/** The centre of the pixels of `colour` (each channel within 60 levels). */
function centroid(image: Pixels, colour: readonly number[]): Point {
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const p = (y * image.width + x) * 4;
      const near = colour.every((value, c) => Math.abs((image.data[p + c] ?? 0) - value) < 60);
      if (!near) continue;
      sx += x + 0.5;
      sy += y + 0.5;
      n++;
    }
  }
  return { x: sx / n, y: sy / n };
}

describe('homography', () => {
  it('takes each corner where it was asked to', () => {
    const quad: Quad = [
      { x: 40, y: 30 },
      { x: 260, y: 50 },
      { x: 300, y: 220 },
      { x: 10, y: 200 },
    ];
    const h = homography(rectangle(200, 100), quad);
    rectangle(200, 100).forEach((corner, k) => {
      const p = project(h, corner);
      expect(p.x).toBeCloseTo(quad[k]?.x ?? NaN, 6);
      expect(p.y).toBeCloseTo(quad[k]?.y ?? NaN, 6);
    });
  });

  it('refuses a quad folded on itself, and knows a convex one', () => {
    const folded: Quad = [
      { x: 0, y: 0 },
      { x: 100, y: 100 },
      { x: 100, y: 0 },
      { x: 0, y: 100 },
    ];
    expect(isConvex(folded)).toBe(false);
    expect(isConvex(rectangle(10, 10))).toBe(true);
  });
});

describe('straightening a quad seen at an angle', () => {
  // The 200 × 100 rectangle lies on a floor, 4 units wide, 2 deep, seen 50° down in 320 × 240.
  const see = camera(320, 240, 50);
  const floorQuad: Quad = [see(-2, 4), see(2, 4), see(2, 2), see(-2, 2)];

  it('puts the marks back within a pixel or two of where they were', () => {
    const photo = photograph(floorQuad, 320, 240);
    const straight = warpQuad(photo, floorQuad, 200, 100);
    for (const mark of MARKS) {
      const found = centroid(straight, mark.colour);
      expect(Math.hypot(found.x - mark.at.x, found.y - mark.at.y)).toBeLessThan(1.5);
    }
  });

  it("recovers the rectangle's proportions from the quad alone (2 : 1)", () => {
    expect(rectifiedAspect(floorQuad, 320, 240)).toBeCloseTo(2, 1);
    // The same for a steeper and a flatter view, and a square.
    const steep = camera(320, 240, 70);
    expect(
      rectifiedAspect([steep(-1, 3), steep(1, 3), steep(1, 1), steep(-1, 1)], 320, 240),
    ).toBeCloseTo(1, 1);
    // Turned as well: both vanishing points finite, the focal length read from the quad.
    const turned = camera(320, 240, 50, 25);
    expect(
      rectifiedAspect([turned(-1, 4), turned(1, 4), turned(1, 3), turned(-1, 3)], 320, 240),
    ).toBeCloseTo(2, 1);
    const flat = camera(320, 240, 35);
    expect(
      rectifiedAspect([flat(-1, 9), flat(2, 9), flat(2, 7), flat(-1, 7)], 320, 240),
    ).toBeCloseTo(1.5, 1);
  });

  it('keeps the straightened size within the limit, in proportion', () => {
    const size = rectifiedSize(floorQuad, 320, 240, 2048);
    expect(size.width / size.height).toBeCloseTo(2, 1);
    const big: Quad = [
      { x: 0, y: 0 },
      { x: 9000, y: 0 },
      { x: 9000, y: 3000 },
      { x: 0, y: 3000 },
    ];
    expect(rectifiedSize(big, 9000, 3000, 2048)).toEqual({ width: 2048, height: 683 });
  });
});

describe('crop and the prepared name', () => {
  it('crops to whole pixels inside the picture', () => {
    const image: Pixels = {
      data: Uint8ClampedArray.from({ length: 4 * 4 * 4 }, (_, i) => i),
      width: 4,
      height: 4,
    };
    const part = crop(image, { x: 1, y: 2, width: 9, height: 1.2 });
    expect([part.width, part.height]).toEqual([3, 1]);
    expect(Array.from(part.data.slice(0, 4))).toEqual([36, 37, 38, 39]);
  });

  it('names the prepared reference after the original, as a PNG', () => {
    expect(preparedName('kitchen floor.JPG')).toBe('kitchen floor-prepared.png');
    expect(preparedName('kitchen floor-prepared.png')).toBe('kitchen floor-prepared.png');
    expect(preparedName('noextension')).toBe('noextension-prepared.png');
  });
});
