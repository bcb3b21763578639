import { describe, expect, it } from 'vitest';
import { clampNumber, DEFAULT_SETTINGS, settingsForFormat, tileCmOf } from './laying-settings';
import { formatOfImage } from './image-format';

describe('formatOfImage', () => {
  it('reads the latent size first, then the picture, then its shape', () => {
    expect(formatOfImage({ latent_width: 1448, latent_height: 724 }, undefined)).toBe('Rectangle');
    expect(formatOfImage({}, { width: 677, height: 1548 })).toBe('Slab');
    expect(formatOfImage({}, { width: 512, height: 512 })).toBe('Square');
    expect(formatOfImage({}, { width: 1200, height: 200 })).toBe('Plank');
    expect(formatOfImage({}, undefined)).toBeUndefined();
  });
});

describe('settingsForFormat', () => {
  it('keeps to what the format offers: its sizes, patterns and turns', () => {
    const square = settingsForFormat(
      { ...DEFAULT_SETTINGS, pattern: 'herringbone', rotation: 'quarter' },
      'Square',
    );
    expect([square.tileSize, square.pattern, square.rotation]).toEqual([
      '60x60',
      'stack',
      'quarter',
    ]);
    const rectangle = settingsForFormat(
      { ...DEFAULT_SETTINGS, tileSize: '60x60', rotation: 'quarter' },
      'Rectangle',
    );
    expect([rectangle.tileSize, rectangle.rotation]).toEqual(['60x120', 'none']);
    expect(rectangle.rotations).not.toContain('quarter');
    expect(settingsForFormat(DEFAULT_SETTINGS, 'Plank').tileSize).toBe('120x20');
  });

  it('reads sizes and numbers within their limits', () => {
    expect(tileCmOf('160x70')).toEqual([160, 70]);
    expect(tileCmOf('')).toBeUndefined();
    expect(clampNumber('25', 0, 20, 3)).toBe(20);
    expect(clampNumber('', 0, 20, 3)).toBe(3);
    expect(clampNumber('-1', 0, 20, 3)).toBe(0);
  });
});
