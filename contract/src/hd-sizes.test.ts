import { describe, expect, it } from 'vitest';
import {
  HD_FIXED_FACTORS,
  HD_SIZES,
  HD_SIZES_BY_FORMAT,
  formatOfHdSize,
  hdFactorsFor,
  hdPixelSize,
  hdPrintSize,
  hdSizesForFormat,
  hdSizesForImage,
  hdTargetSize,
  isHdSizeLabel,
  type HdSizeLabel,
  sizeLabelFromFactors,
} from './hd-sizes.js';

describe('HD size table', () => {
  it('[H2] fixes rescale_factor_cr711 at 1.74 and scale_by_latent707 at 1', () => {
    expect(HD_FIXED_FACTORS).toEqual({ rescale_factor_cr711: 1.74, scale_by_latent707: 1 });
  });

  it('[H2] holds the 14 sizes of the spec with their factors', () => {
    const rows = HD_SIZES.map((s) => [s.label, s.rescale_factor_cr701, s.scale_by_image692]);
    expect(rows).toEqual([
      ['30x30', 1.5, 1.4],
      ['60x60', 1.5, 2.7],
      ['90x90', 1.5, 4],
      ['100x100', 2.24, 3],
      ['120x120', 2.24, 3.6],
      ['30x60', 1.5, 1.9],
      ['45x90', 1.5, 2.85],
      ['60x120', 1.5, 3.77],
      ['90x180', 2.12, 4],
      ['100x200', 2.36, 4],
      ['120x240', 2.82, 4],
      ['160x70', 2.35, 3],
      ['320x140', 3.51, 4],
      ['120x20', 1.7, 2],
    ]);
  });

  it('[M2] offers the sizes of each format and none for any other', () => {
    expect(hdSizesForFormat('Square')).toEqual(['30x30', '60x60', '90x90', '100x100', '120x120']);
    expect(hdSizesForFormat('Rectangle')).toEqual([
      '30x60',
      '45x90',
      '60x120',
      '90x180',
      '100x200',
      '120x240',
    ]);
    expect(hdSizesForFormat('Slab')).toEqual(['160x70', '320x140']);
    expect(hdSizesForFormat('Plank')).toEqual(['120x20']);
    expect(hdSizesForFormat('Other')).toEqual([]);
    expect(hdSizesForFormat('constructor')).toEqual([]);
    expect(hdSizesForFormat(undefined)).toEqual([]);
  });

  it('[M2] every size offered for a format is in the table, and every table size is offered', () => {
    const offered = Object.values(HD_SIZES_BY_FORMAT).flat();
    expect([...offered].sort()).toEqual(HD_SIZES.map((s) => s.label).sort());
  });

  it('[M2] finds the sizes of an image through its latent size', () => {
    expect(hdSizesForImage(677, 1548)).toEqual(['160x70', '320x140']);
    expect(hdSizesForImage(2506, 418)).toEqual(['120x20']);
    expect(hdSizesForImage(1000, 1000)).toEqual([]);
  });

  it('gives all four factors of a size', () => {
    expect(hdFactorsFor('60x60')).toEqual({
      rescale_factor_cr711: 1.74,
      scale_by_latent707: 1,
      rescale_factor_cr701: 1.5,
      scale_by_image692: 2.7,
    });
    expect(hdFactorsFor('61x61')).toBeUndefined();
    expect(isHdSizeLabel('320x140')).toBe(true);
    expect(isHdSizeLabel('320x141')).toBe(false);
  });
});

describe('size label from factors', () => {
  it('[Z1] matches numbers and numeric strings against the table', () => {
    expect(sizeLabelFromFactors({ rescale_factor_cr701: 1.5, scale_by_image692: 1.4 })).toBe(
      '30x30',
    );
    expect(sizeLabelFromFactors({ rescale_factor_cr701: '2.24', scale_by_image692: '3.6' })).toBe(
      '120x120',
    );
    expect(sizeLabelFromFactors({ rescale_factor_cr701: '1.5', scale_by_image692: '2.85' })).toBe(
      '45x90',
    );
  });

  it('[Z1] rounds each factor to 2 decimals before matching', () => {
    expect(sizeLabelFromFactors({ rescale_factor_cr701: 1.504, scale_by_image692: 1.396 })).toBe(
      '30x30',
    );
    expect(
      sizeLabelFromFactors({ rescale_factor_cr701: 1.506, scale_by_image692: 1.4 }),
    ).toBeUndefined();
    expect(
      sizeLabelFromFactors({ rescale_factor_cr701: 1.5, scale_by_image692: 1.406 }),
    ).toBeUndefined();
  });

  it('[Z1] shows no size when nothing matches or a factor is missing or not a number', () => {
    expect(
      sizeLabelFromFactors({ rescale_factor_cr701: 1.5, scale_by_image692: 5 }),
    ).toBeUndefined();
    expect(sizeLabelFromFactors({ rescale_factor_cr701: 1.5 })).toBeUndefined();
    expect(sizeLabelFromFactors({})).toBeUndefined();
    expect(
      sizeLabelFromFactors({ rescale_factor_cr701: 'abc', scale_by_image692: '1.4' }),
    ).toBeUndefined();
    expect(
      sizeLabelFromFactors({ rescale_factor_cr701: null, scale_by_image692: 1.4 }),
    ).toBeUndefined();
  });

  it('[Z1] finds every size of the table from its own factors (no two sizes share factors)', () => {
    for (const size of HD_SIZES) {
      expect(sizeLabelFromFactors({ ...size })).toBe(size.label);
      expect(
        sizeLabelFromFactors({
          rescale_factor_cr701: String(size.rescale_factor_cr701),
          scale_by_image692: String(size.scale_by_image692),
        }),
      ).toBe(size.label);
    }
  });
});

describe('HD target size', () => {
  it('multiplies the LD size by both factors and rounds', () => {
    expect(hdTargetSize(1024, 1024, '30x30')).toEqual({ width: 2150, height: 2150 });
    expect(hdTargetSize(1448, 724, '120x240')).toEqual({ width: 16333, height: 8167 });
    expect(hdTargetSize(2506, 418, '120x20')).toEqual({ width: 8520, height: 1421 });
    expect(hdTargetSize(677, 1548, '320x140')).toEqual({ width: 9505, height: 21734 });
  });
});

describe('formatOfHdSize', () => {
  it('names the LD format every HD size is made from', () => {
    for (const [format, labels] of Object.entries(HD_SIZES_BY_FORMAT)) {
      for (const label of labels) expect(formatOfHdSize(label)?.name, label).toBe(format);
    }
  });
});

describe('HD print size', () => {
  it('puts the ordered centimetres on the sides they measure, at width ÷ cm pixels per cm', () => {
    expect(hdPixelSize('30x30')).toEqual({ width: 2150, height: 2150 });
    const square = hdPrintSize('30x30', 2150, 2150);
    expect([square.widthCm, square.heightCm]).toEqual([30, 30]);
    expect(square.pixelsPerCm).toBeCloseTo(71.67, 2);
    expect(Math.round(square.dotsPerInch)).toBe(182);
    // Labels name the sides height × width for Rectangle and Slab, width × height for Plank.
    const cm = (label: HdSizeLabel) => {
      const pixels = hdPixelSize(label) ?? { width: 0, height: 0 };
      const print = hdPrintSize(label, pixels.width, pixels.height);
      return [print.widthCm, print.heightCm];
    };
    expect(cm('120x240')).toEqual([240, 120]);
    expect(cm('320x140')).toEqual([140, 320]);
    expect(cm('120x20')).toEqual([120, 20]);
    // Every size prints at its ordered centimetres on both sides (within 0.2 %) at about 70 px/cm.
    for (const { label } of HD_SIZES) {
      const pixels = hdPixelSize(label) ?? { width: 0, height: 0 };
      const print = hdPrintSize(label, pixels.width, pixels.height);
      expect(pixels.width / print.pixelsPerCm).toBeCloseTo(print.widthCm, 6);
      expect(Math.abs(pixels.height / print.pixelsPerCm / print.heightCm - 1)).toBeLessThan(0.002);
      expect(print.pixelsPerCm).toBeGreaterThan(60);
      expect(print.pixelsPerCm).toBeLessThan(80);
    }
  });
});
