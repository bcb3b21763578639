import { describe, expect, it } from 'vitest';
import { formatFileSize, formatCount } from './number-format.js';
import { PRINT_TEXTS, PRINT_TEXTS_EN } from './print-texts.js';
import {
  PRINT_DEFAULT_SETTINGS,
  printChannels,
  printEstimateQuerySchema,
  printPixelSize,
  printSettingsSchema,
  printUncompressedBytes,
} from './print.js';

describe('printPixelSize', () => {
  it('makes a 120x240 cm print at 360 dpi without bleed 17008 × 34016 px (about 578.5 MP)', () => {
    // 120 ÷ 2.54 × 360 = 17007.87 → 17008; 240 ÷ 2.54 × 360 = 34015.75 → 34016.
    const size = printPixelSize({ widthCm: 120, heightCm: 240 }, 360, 0);
    expect(size).toEqual({
      width: 17008,
      height: 34016,
      cutWidth: 17008,
      cutHeight: 34016,
      bleedLeft: 0,
      bleedTop: 0,
    });
    expect((size.width * size.height) / 1e6).toBeCloseTo(578.5, 1);
  });

  it('adds the bleed to both sides before rounding: 120 × 60 cm, 3 mm, 360 dpi', () => {
    // (120 + 0.6) ÷ 2.54 × 360 = 17092.91 → 17093; (60 + 0.6) ÷ 2.54 × 360 = 8588.98 → 8589.
    // The cut, 17008 × 8504, sits in the middle: 85 px of bleed across, 42 left and 43 right.
    expect(printPixelSize({ widthCm: 120, heightCm: 60 }, 360, 3)).toEqual({
      width: 17093,
      height: 8589,
      cutWidth: 17008,
      cutHeight: 8504,
      bleedLeft: 42,
      bleedTop: 42,
    });
  });

  it('makes 30 × 30 cm with 2 mm bleed at 300 dpi 3591 px a side', () => {
    // 30.4 ÷ 2.54 × 300 = 3590.55 → 3591; the cut 3543.31 → 3543, 24 px of bleed each side.
    const size = printPixelSize({ widthCm: 30, heightCm: 30 }, 300, 2);
    expect([size.width, size.height, size.cutWidth, size.bleedLeft]).toEqual([
      3591, 3591, 3543, 24,
    ]);
  });
});

describe('printUncompressedBytes', () => {
  const size = { width: 17008, height: 34016 };

  it('is width × height × channels × bytes per sample', () => {
    expect(printUncompressedBytes(size, printChannels('rgb'), 8)).toBe(1_735_632_384);
    expect(printUncompressedBytes(size, printChannels('rgb'), 16)).toBe(3_471_264_768);
    expect(printUncompressedBytes(size, printChannels('cmyk'), 8)).toBe(2_314_176_512);
    expect(printUncompressedBytes(size, printChannels('cmyk'), 16)).toBe(4_628_353_024);
  });
});

describe('print settings', () => {
  it('accepts the defaults and refuses a bleed off the 0.5 mm steps or a dpi out of range', () => {
    expect(printSettingsSchema.safeParse(PRINT_DEFAULT_SETTINGS).success).toBe(true);
    const withBleed = (bleedMm: number) =>
      printSettingsSchema.safeParse({ ...PRINT_DEFAULT_SETTINGS, bleedMm }).success;
    expect([withBleed(2.5), withBleed(2.3), withBleed(21), withBleed(-0.5)]).toEqual([
      true,
      false,
      false,
      false,
    ]);
    const withDpi = (dpi: number) =>
      printSettingsSchema.safeParse({ ...PRINT_DEFAULT_SETTINGS, dpi }).success;
    expect([withDpi(72), withDpi(1200), withDpi(71), withDpi(1201), withDpi(300.5)]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('reads the estimate query from its strings', () => {
    const query = printEstimateQuerySchema.parse({
      image: 'tile_60x120.jpg',
      dpi: '300',
      bleedMm: '2.5',
      compression: 'deflate',
      bitDepth: '16',
      profile: 'srgb',
    });
    expect(query).toMatchObject({ dpi: 300, bleedMm: 2.5, bitDepth: 16 });
  });
});

describe('the texts', () => {
  it('states sizes exactly and at a glance, in each language’s locale', () => {
    expect(formatCount(1_735_632_384, 'es')).toBe('1.735.632.384');
    expect(formatCount(1_735_632_384, 'en')).toBe('1,735,632,384');
    expect(formatCount(999, 'es')).toBe('999');
    expect(formatFileSize(1_735_632_384, 'es')).toBe('1,62 GB');
    expect(formatFileSize(1_735_632_384, 'en')).toBe('1.62 GB');
    expect(formatFileSize(38_685_843, 'en')).toBe('36.9 MB');
    expect(formatFileSize(2000, 'es')).toBe('2 kB');
    // es-ES groups from five digits on: 8589, 17.093.
    expect(PRINT_TEXTS.pixelSize(17008, 8589)).toBe('17.008 × 8589 px (146,1 MP)');
    expect(PRINT_TEXTS_EN.pixelSize(17008, 34016)).toBe('17,008 × 34,016 px (578.5 MP)');
    expect(PRINT_TEXTS.bytes(38_685_843)).toBe('38.685.843 bytes (36,9 MB)');
    expect(PRINT_TEXTS_EN.bytes(38_685_843)).toBe('38,685,843 bytes (36.9 MB)');
  });

  it('gives the physical size with the bleed and the cut', () => {
    const print = { widthCm: 120, heightCm: 60 };
    expect(PRINT_TEXTS.physicalSizeValue(print, 3)).toBe(
      '120,6 × 60,6 cm (corte de 120 × 60 cm, 3 mm de sangrado)',
    );
    expect(PRINT_TEXTS.physicalSizeValue(print, 0)).toBe('120 × 60 cm (sin sangrado)');
    expect(PRINT_TEXTS_EN.physicalSizeValue(print, 0)).toBe('120 × 60 cm (no bleed)');
    expect(PRINT_TEXTS_EN.physicalSizeValue(print, 0.5)).toBe(
      '120.1 × 60.1 cm (cut 120 × 60 cm, 0.5 mm bleed)',
    );
  });

  it('sums up a file’s settings', () => {
    const settings = {
      dpi: 300,
      bleedMm: 2.5,
      compression: 'deflate',
      bitDepth: 16,
      profile: 'fogra39.icc',
    } as const;
    expect(PRINT_TEXTS.settingsSummary(settings, 'Coated FOGRA39 (CMYK)')).toBe(
      '300 ppp · 2,5 mm de sangrado · Deflate (ZIP) · 16 bits · Coated FOGRA39 (CMYK)',
    );
    expect(PRINT_TEXTS_EN.settingsSummary(settings, 'Coated FOGRA39 (CMYK)')).toBe(
      '300 dpi · 2.5 mm bleed · Deflate (ZIP) · 16-bit · Coated FOGRA39 (CMYK)',
    );
  });

  it('states the limits of the fields', () => {
    expect(PRINT_TEXTS.dpiInvalid).toBe(
      'La resolución debe ser un número entero de 72 a 1200 ppp.',
    );
    expect(PRINT_TEXTS.bleedInvalid).toBe('El sangrado debe ir de 0 a 20 mm, en pasos de 0,5 mm.');
    expect(PRINT_TEXTS_EN.bleedInvalid).toBe(
      'The bleed must be from 0 to 20 mm, in steps of 0.5 mm.',
    );
  });
});
