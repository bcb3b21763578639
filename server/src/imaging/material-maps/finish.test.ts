import { describe, expect, it } from 'vitest';
import { greyImage, mapsOf } from '../../testing/material-maps.js';
import { FINISH_EFFECTS, type FinishId } from '../finishes.js';
import { settingsFor } from './map-settings.js';

// The roughness map follows the finish the image's prompts name (issue 27): the same pixels
// make a smoother map polished than matte; without one it is as it was (maps.test.ts).

const WIDTH = 96;
const HEIGHT = 64;
const texture = greyImage(
  WIDTH,
  HEIGHT,
  (x, y) => 128 + 50 * Math.sin(x / 5) * Math.cos(y / 7) + (((x * 7919 + y * 104729) % 23) - 11),
);

async function roughness(finish?: FinishId): Promise<Uint8Array[]> {
  const settings = settingsFor(WIDTH, HEIGHT, 'clamp', undefined, finish);
  return (await mapsOf(texture, settings)).roughness;
}

const mean = (rows: Uint8Array[]) =>
  rows.reduce((sum, row) => sum + row.reduce((s, v) => s + v, 0), 0) / (WIDTH * HEIGHT);

describe('roughness by finish', () => {
  it('polished is smoother than honed, honed than matte, from the same pixels', async () => {
    const [polished = 0, honed = 0, matte = 0, weathered = 0] = await Promise.all(
      (['polished', 'honed', 'matte', 'weathered'] as const).map(async (f) =>
        mean(await roughness(f)),
      ),
    );
    expect(polished).toBeLessThan(0.35 * 255);
    expect(honed).toBeGreaterThan(polished + 40);
    expect(matte).toBeGreaterThan(honed + 40);
    expect(weathered).toBeGreaterThan(honed + 40);
  });

  it('keeps the texture: each map still varies where the plain one does, within its range', async () => {
    const plain = await roughness();
    const polished = await roughness('polished');
    const { low, high } = FINISH_EFFECTS.polished.roughness;
    for (let y = 0; y < HEIGHT; y++) {
      for (let x = 0; x < WIDTH; x++) {
        const expected = Math.round(255 * (low + (high - low) * ((plain[y]?.[x] ?? 0) / 255)));
        expect(Math.abs((polished[y]?.[x] ?? 0) - expected)).toBeLessThanOrEqual(1);
      }
    }
  });
});
