/**
 * How large a print file will be, before it is made (issue 26, part 1): the pixels exactly (the
 * contract's arithmetic), and the bytes from a sample band of the real render — the top rows of
 * the resized HD, converted and compressed with the chosen settings — scaled to the whole. The
 * top rows are what a sequential read reaches first, so the sample costs a fraction of a second
 * whatever the HD's size.
 */
import { printChannels, printUncompressedBytes } from '@tessera/contract';
import sharp from 'sharp';
import type { PhysicalSize } from '../physical-size.js';
import { printLayout } from './layout.js';
import { encodePrint, sourceSize, type PrintRenderSettings } from './render.js';

export interface PrintEstimateTask extends PrintRenderSettings {
  sourcePath: string;
  print: PhysicalSize;
  profilePath?: string;
  colourSpace: 'rgb' | 'cmyk';
}

export interface PrintSizeEstimate {
  width: number;
  height: number;
  uncompressedBytes: number;
  estimatedBytes: number;
}

/** Pixels in the sample band: enough to average a texture's detail, little enough to be quick. */
const SAMPLE_PIXELS = 1_000_000;

export async function estimatePrintFile(task: PrintEstimateTask): Promise<PrintSizeEstimate> {
  const layout = printLayout(await sourceSize(task.sourcePath), task.print, task.dpi, task.bleedMm);
  const { width, height, cutWidth, cutHeight } = layout;
  const rows = Math.min(cutHeight, Math.max(8, Math.round(SAMPLE_PIXELS / cutWidth)));
  const sample = await encodePrint(
    sharp(task.sourcePath, { limitInputPixels: false, sequentialRead: true })
      .resize(cutWidth, cutHeight, { fit: 'fill', kernel: 'lanczos3' })
      .extract({ left: 0, top: 0, width: cutWidth, height: rows }),
    task,
    { width: cutWidth, height: rows },
  ).toBuffer();
  // What a file holds besides its pixels (header, profile, strip tables), from a 1-pixel file.
  const overhead = (
    await encodePrint(
      sharp({ create: { width: 1, height: 1, channels: 3, background: '#808080' } }),
      task,
      { width: 1, height: 1 },
    ).toBuffer()
  ).length;
  const perPixel = Math.max(0, sample.length - overhead) / (cutWidth * rows);
  const uncompressedBytes = printUncompressedBytes(
    layout,
    printChannels(task.colourSpace),
    task.bitDepth,
  );
  return {
    width,
    height,
    uncompressedBytes,
    estimatedBytes: Math.max(1, Math.round(overhead + perPixel * width * height)),
  };
}
