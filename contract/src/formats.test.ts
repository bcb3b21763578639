import { describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS, formatByName, formatBySize } from './formats.js';

describe('output formats', () => {
  it('[G10] lists Square, Rectangle, Slab and Plank with their sizes', () => {
    expect(OUTPUT_FORMATS).toEqual([
      { name: 'Square', width: 1024, height: 1024 },
      { name: 'Rectangle', width: 1448, height: 724 },
      { name: 'Slab', width: 677, height: 1548 },
      { name: 'Plank', width: 2506, height: 418 },
    ]);
  });

  it('[G10] finds a format by its exact size only', () => {
    expect(formatBySize(1448, 724)?.name).toBe('Rectangle');
    expect(formatBySize(677, 1548)?.name).toBe('Slab');
    expect(formatBySize(724, 1448)).toBeUndefined();
    expect(formatBySize(1024, 1023)).toBeUndefined();
  });

  it('[G10] finds a format by its exact name only', () => {
    expect(formatByName('Plank')).toEqual({ name: 'Plank', width: 2506, height: 418 });
    expect(formatByName('plank')).toBeUndefined();
    expect(formatByName('Other')).toBeUndefined();
  });
});
