/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Reads of rows the helpers made themselves, at indices inside them. */
import type { MapSettings } from '../imaging/material-maps/map-settings.js';
import { MATERIAL_MAP_NAMES, type MaterialMapName } from '../imaging/material-maps/maps.js';
import { memoryRowSource, processInStrips } from '../imaging/material-maps/strips.js';

/** Every row of every map of an image, top to bottom. */
export type MapsInMemory = Record<MaterialMapName, Uint8Array[]>;

/** Every map of an image held in memory, made strip by strip. */
export async function mapsOf(
  pixels: Uint8Array,
  settings: MapSettings,
  stripRows?: number,
): Promise<MapsInMemory> {
  const rows = Object.fromEntries(
    MATERIAL_MAP_NAMES.map((m) => [m, []]),
  ) as unknown as MapsInMemory;
  await processInStrips(
    memoryRowSource(pixels, settings.width, settings.height),
    settings,
    {
      row: (made) => {
        for (const map of MATERIAL_MAP_NAMES) rows[map].push(Uint8Array.from(made[map]));
      },
      flush: () => Promise.resolve(),
    },
    stripRows === undefined ? {} : { stripRows },
  );
  return rows;
}

/** A grey image (one byte a pixel) of these values. */
export function greyImage(
  width: number,
  height: number,
  value: (x: number, y: number) => number,
): Uint8Array {
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels[y * width + x] = Math.round(value(x, y));
  }
  return pixels;
}

/** The normal's three bytes at (x, y) of a normal map's rows. */
export const normalAt = (rows: Uint8Array[], x: number, y: number): number[] => [
  ...rows[y]!.subarray(3 * x, 3 * x + 3),
];

/** The 16-bit level at (x, y) of the height map's rows. */
export const heightAt = (rows: Uint8Array[], x: number, y: number): number =>
  (rows[y]![2 * x]! << 8) | rows[y]![2 * x + 1]!;
