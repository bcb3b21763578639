import { edgeIndex, marginRows, type MapSettings } from './map-settings.js';
import { StripWorkspace, type MapRows } from './maps.js';

/** Luminance rows of an image (one byte a pixel), read a run of rows at a time. */
export interface RowSource {
  readonly width: number;
  readonly height: number;
  /** Rows [top, top + count) of the image, `count × width` bytes. */
  readRows(top: number, count: number): Promise<Uint8Array>;
}

/**
 * Takes the maps' rows as they are made, top to bottom; the buffers are reused after it
 * returns, so it copies what it keeps. `flush` is awaited after each strip: a writer's
 * back-pressure holds the next strip back.
 */
export interface MapRowSink {
  row(rows: MapRows): void;
  flush(): Promise<void>;
}

export interface StripOptions {
  /** Output rows per strip; default: as many as fit in STRIP_PIXELS. */
  stripRows?: number;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** What a run held at most, for the tests that bound its memory. */
export interface StripStats {
  strips: number;
  /** Most image rows held at once (a strip and its margins). */
  maxRowsHeld: number;
}

/** Output pixels per strip: a few megapixels keep the margins' share of the work small. */
export const STRIP_PIXELS = 1_000_000;

export function defaultStripRows(width: number): number {
  return Math.max(16, Math.min(1024, Math.floor(STRIP_PIXELS / width)));
}

/**
 * Makes the maps of a whole image strip by strip: each strip's rows are read with the filters'
 * margin rows above and below (across the image's top and bottom by the edge mode), so memory
 * holds one strip, never the image, however large it is.
 */
export async function processInStrips(
  source: RowSource,
  settings: MapSettings,
  sink: MapRowSink,
  options: StripOptions = {},
): Promise<StripStats> {
  const { width, height, edges } = settings;
  if (source.width !== width || source.height !== height) {
    throw new Error('The row source and the settings disagree on the size');
  }
  const stripRows = Math.min(height, options.stripRows ?? defaultStripRows(width));
  const margin = marginRows(settings);
  const workspace = new StripWorkspace(settings, stripRows);
  const windowBuffer = new Uint8Array((stripRows + 2 * margin) * width);
  const stats: StripStats = { strips: 0, maxRowsHeld: 0 };

  for (let top = 0; top < height; top += stripRows) {
    options.signal?.throwIfAborted();
    const count = Math.min(stripRows, height - top);
    const rows = count + 2 * margin;
    const window = windowBuffer.subarray(0, rows * width);
    await readWindow(source, top - margin, rows, edges, window);
    stats.maxRowsHeld = Math.max(stats.maxRowsHeld, rows);
    workspace.process(window, count, (made) => sink.row(made));
    stats.strips++;
    await sink.flush();
    options.onProgress?.((top + count) / height);
  }
  return stats;
}

/**
 * Rows [first, first + rows) of the image into `target`, rows outside the image taken by the
 * edge mode: contiguous runs are read at once, a repeated edge row is copied.
 */
async function readWindow(
  source: RowSource,
  first: number,
  rows: number,
  edges: MapSettings['edges'],
  target: Uint8Array,
): Promise<void> {
  const { width, height } = source;
  let i = 0;
  while (i < rows) {
    const start = edgeIndex(first + i, height, edges);
    if (i > 0 && start === edgeIndex(first + i - 1, height, edges)) {
      target.copyWithin(i * width, (i - 1) * width, i * width);
      i++;
      continue;
    }
    let run = 1;
    while (i + run < rows && edgeIndex(first + i + run, height, edges) === start + run) run++;
    target.set(await source.readRows(start, run), i * width);
    i += run;
  }
}

/** A row source over luminance held in memory: tests, and images small enough to hold. */
export function memoryRowSource(pixels: Uint8Array, width: number, height: number): RowSource {
  return {
    width,
    height,
    readRows: (top, count) => Promise.resolve(pixels.subarray(top * width, (top + count) * width)),
  };
}
