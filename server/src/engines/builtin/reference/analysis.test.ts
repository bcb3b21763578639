import { referenceFiguresSchema } from '@tessera/contract';
import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../../imaging/raw-image.js';
import {
  floorFromAbove,
  floorPhoto,
  imageFloor,
  tileFloor,
  withDisc,
  withSideLight,
} from '../../../testing/perspective-floor.js';
import { marble, terrazzo } from '../test-references-surfaces.js';
import { bricks, seamReferences, stripes, valueNoise } from '../test-references.js';
import {
  analyseReference,
  OBJECT_AREA,
  PERSPECTIVE_LINES,
  SCALE_RATIO,
  SPACING_RATIO,
} from './analysis.js';

// References that cannot work (issue 27, part 5): the analysis on pictures made here. A floor
// photographed at an angle is rendered through a real pinhole camera (perspective-floor.ts).

/** A person's photo of a tiled floor: 1.6 m up (tiles of 32 cm), looking 50° down. */
const ANGLED = { width: 512, height: 384, pitchDegrees: 50, fovDegrees: 45, cameraHeight: 5 };

describe('perspective', () => {
  it('a tiled floor photographed at an angle: its joints converge and recede', () => {
    const { warnings, figures } = analyseReference(floorPhoto(tileFloor(), ANGLED));
    expect(warnings).toEqual(['perspective']);
    // Three cues, each past its threshold with room to spare.
    expect(figures.convergingLines).toBeGreaterThanOrEqual(PERSPECTIVE_LINES + 1);
    expect(figures.convergenceSpreadDegrees).toBeGreaterThan(20);
    // The vanishing point is above the picture, near the middle, as for a camera looking down.
    expect(figures.vanishingPoint?.y).toBeLessThan(-0.3);
    expect(figures.vanishingPoint?.x).toBeCloseTo(0.5, 1);
    expect(figures.spacingRatio).toBeGreaterThan(SPACING_RATIO * 1.2);
    expect(figures.scaleRatio).toBeGreaterThan(SCALE_RATIO * 1.2);
    expect(figures.scaleAxis).toBe('vertical');
  });

  it('the same floor seen from straight above: no warning', () => {
    const { warnings, figures } = analyseReference(floorFromAbove(tileFloor(), 512, 384, 5));
    expect(warnings).toEqual([]);
    expect(figures.segments).toBeGreaterThanOrEqual(6);
    expect(figures.convergingLines).toBeLessThanOrEqual(2);
    expect(figures.spacingRatio).toBeLessThan(1.2);
    expect(figures.scaleRatio).toBeLessThan(1.25);
  });

  it('bricks at an angle, whose rows stay parallel: their spacing and scale shrink', () => {
    const floor = imageFloor(bricks(512, 512, 5), 8);
    const { warnings, figures } = analyseReference(
      floorPhoto(floor, { ...ANGLED, pitchDegrees: 45 }),
    );
    expect(warnings).toEqual(['perspective']);
    expect(figures.spacingRatio).toBeGreaterThan(SPACING_RATIO * 1.1);
    expect(figures.scaleRatio).toBeGreaterThan(SCALE_RATIO * 1.1);
  });

  it('terrazzo at an angle, with no lines at all: its scale shrinks steadily', () => {
    const floor = imageFloor(terrazzo(512, 512), 6);
    const { warnings, figures } = analyseReference(
      floorPhoto(floor, { ...ANGLED, pitchDegrees: 45 }),
    );
    expect(warnings).toEqual(['perspective']);
    expect(figures.segments).toBe(0);
    expect(figures.scaleRatio).toBeGreaterThan(SCALE_RATIO * 1.2);
    expect(figures.scaleSteadiness).toBeGreaterThan(0.95);
  });
});

describe('a strong object', () => {
  const cases: [string, RawImage][] = [
    ['a dark disc on terrazzo', withDisc(terrazzo(384, 384), { x: 0.45, y: 0.55 }, 0.18, -90)],
    ['a bright blob on bricks', withDisc(bricks(384, 384, 5), { x: 0.5, y: 0.5 }, 0.2, 90)],
    [
      'a dark disc on tiles',
      withDisc(floorFromAbove(tileFloor(), 512, 384, 5), { x: 0.3, y: 0.6 }, 0.15, -100),
    ],
  ];
  it.each(cases)('%s, much larger than the texture’s features', (_, image) => {
    const { warnings, figures } = analyseReference(image);
    expect(warnings).toEqual(['object']);
    expect(figures.objectArea).toBeGreaterThan(OBJECT_AREA * 2);
  });
});

describe('strong uneven lighting', () => {
  it('terrazzo lit from one side: lighting, nothing else', () => {
    const { warnings, figures } = analyseReference(withSideLight(terrazzo(384, 384), 110));
    expect(warnings).toEqual(['lighting']);
    expect(figures.lightingRange).toBeGreaterThan(90);
  });
});

describe("the repository's test references", () => {
  const references: Record<string, RawImage> = {
    ...seamReferences(384),
    bricks: bricks(384, 384),
    marble: marble(384, 384),
    terrazzo: terrazzo(384, 384),
    noise: valueNoise(384, 384),
    stripes: stripes(384, 384),
  };
  it.each(Object.entries(references))('%s: no false alarm', (_, image) => {
    const { warnings, figures } = analyseReference(image);
    expect(warnings).toEqual([]);
    // Each figure well inside its threshold, not just under it.
    expect(figures.convergingLines).toBeLessThanOrEqual(PERSPECTIVE_LINES - 2);
    expect(figures.spacingRatio).toBeLessThan(SPACING_RATIO * 0.85);
    expect(figures.scaleRatio).toBeLessThan(SCALE_RATIO * 0.8);
    expect(figures.objectArea).toBeLessThan(OBJECT_AREA / 4);
  });
});

describe('pictures with nothing to measure', () => {
  it.each([
    [1, 1],
    [3, 2],
    [16, 16],
    [2000, 8],
  ])('a plain %i × %i picture: figures the contract accepts, no warning', (width, height) => {
    const data = new Uint8Array(width * height * 4).fill(128);
    const { figures, warnings } = analyseReference({ data, width, height });
    expect(referenceFiguresSchema.safeParse(figures).success).toBe(true);
    expect(warnings).toEqual([]);
  });
});
