import { describe, expect, it } from 'vitest';
import {
  DETAIL_TEXTS,
  DETAIL_TEXTS_EN,
  detailFigures,
  generatedPercent,
  pxPerCmOfDpi,
} from './detail.js';

// A Square ordered at 30x30: the LD is 1024 px, the HD 2150 px (1024 × 1.5 × 1.4), both over
// 30 cm. The builtin engine's ×2 network made 2048 px of it.
const SQUARE_30 = { widthCm: 30, ldWidth: 1024, hdWidth: 2150 };

describe('detailFigures', () => {
  it('gives px/cm of the LD, the generated detail and the HD, and the share of the HD', () => {
    const figures = detailFigures({ ...SQUARE_30, detailWidth: 2048 });
    expect(figures.ldPxPerCm).toBeCloseTo(34.133, 3); // 1024 ÷ 30
    expect(figures.generatedPxPerCm).toBeCloseTo(68.267, 3); // 2048 ÷ 30
    expect(figures.hdPxPerCm).toBeCloseTo(71.667, 3); // 2150 ÷ 30
    expect(figures.printPxPerCm).toBeUndefined();
    expect(figures.generatedShare).toBeCloseTo(2048 / 2150, 6); // 0.9526
  });

  it('measures the share against the print file when a resolution is chosen', () => {
    const figures = detailFigures({ ...SQUARE_30, detailWidth: 2048, printDpi: 300 });
    expect(figures.printPxPerCm).toBeCloseTo(118.11, 2); // 300 ÷ 2.54
    // 68.267 ÷ 118.11 = 0.578: 58 % generated, 42 % enlargement.
    expect(figures.generatedShare).toBeCloseTo(0.578, 3);
    expect(generatedPercent(figures.generatedShare ?? 0)).toBe(58);
  });

  it('never counts more generated detail than the HD file holds', () => {
    // A ×4 network output (4096 px) resampled down to 2150 px keeps 2150 px of detail.
    const figures = detailFigures({ ...SQUARE_30, detailWidth: 4096 });
    expect(figures.generatedPxPerCm).toBeCloseTo(71.667, 3);
    expect(figures.generatedShare).toBe(1);
    // Printed at 150 dpi (59 px/cm), less than the HD's: all of the print is generated.
    expect(detailFigures({ ...SQUARE_30, detailWidth: 2048, printDpi: 150 }).generatedShare).toBe(
      1,
    );
  });

  it('leaves the generated figures out when the HD image does not record them', () => {
    const figures = detailFigures({ ...SQUARE_30, printDpi: 360 });
    expect(figures).not.toHaveProperty('generatedPxPerCm');
    expect(figures).not.toHaveProperty('generatedShare');
    expect(figures.printPxPerCm).toBeCloseTo(pxPerCmOfDpi(360), 9);
  });
});

describe('the detail texts', () => {
  it('say the share plainly, as whole percents', () => {
    expect(DETAIL_TEXTS.share(0.578, 'print')).toBe(
      'El 58 % del detalle de la impresión se ha generado; el resto es ampliación.',
    );
    expect(DETAIL_TEXTS_EN.share(0.578, 'print')).toBe(
      "58 % of the print's detail was generated; the rest is enlargement.",
    );
    expect(DETAIL_TEXTS_EN.share(0.9526, 'hd')).toBe(
      "95 % of the HD file's detail was generated; the rest is enlargement.",
    );
    // 99.6 % is not all of it.
    expect(generatedPercent(0.996)).toBe(99);
    expect(DETAIL_TEXTS.share(1, 'hd')).toBe(
      'Todo el detalle del archivo HD se ha generado; nada es ampliación.',
    );
    expect(DETAIL_TEXTS_EN.share(1, 'hd')).toBe(
      "All of the HD file's detail was generated; none of it is enlargement.",
    );
  });

  it('write densities in each language’s locale', () => {
    expect(DETAIL_TEXTS.pxPerCm(118.11)).toBe('118,1 px/cm (300 ppp)');
    expect(DETAIL_TEXTS_EN.pxPerCm(118.11)).toBe('118.1 px/cm (300 dpi)');
  });
});
