import { describe, expect, it } from 'vitest';
import {
  HD_ENCODINGS,
  HD_EXTENSIONS_TEXT,
  HD_PNG_MAX_PIXELS,
  HD_TYPES_BY_EXTENSION,
  hdEncodingFor,
  hdFormatOfName,
  printEncodingFor,
} from './hd-encodings.js';

describe('the HD output-encoding table', () => {
  it('chooses PNG, then JPEG, by pixel count, never a print row', () => {
    expect(hdEncodingFor(1)).toBe('png');
    expect(hdEncodingFor(HD_PNG_MAX_PIXELS)).toBe('png');
    expect(hdEncodingFor(HD_PNG_MAX_PIXELS + 1)).toBe('jpeg');
    expect(hdEncodingFor(600_000_000)).toBe('jpeg');
  });

  it('keeps the print rows out of what HD files are named and served as (issue 26)', () => {
    expect(hdFormatOfName('tile_120x240.tif')).toBeUndefined();
    expect(hdFormatOfName('tile_120x240.JPEG')).toBe('jpeg');
    expect(HD_EXTENSIONS_TEXT).toBe('.png or .jpg');
    expect(HD_TYPES_BY_EXTENSION['tif']).toBeUndefined();
  });

  it('has a TIFF row per print compression, written with its density', () => {
    expect(printEncodingFor('lzw')).toBe('tiff-lzw');
    expect(printEncodingFor('deflate')).toBe('tiff-deflate');
    for (const row of [HD_ENCODINGS['tiff-lzw'], HD_ENCODINGS['tiff-deflate']]) {
      expect(row).toMatchObject({ format: 'tiff', extension: 'tif', mimeType: 'image/tiff' });
      expect(row.printOnly).toBe(true);
    }
  });
});
