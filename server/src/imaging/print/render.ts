/**
 * The print render (issue 26, part 1): an HD file (PNG or JPEG) to a TIFF at the printer's
 * resolution, the cut size resized with lanczos3 and the bleed around it, in sRGB or through an
 * output ICC profile, streamed: libvips reads the HD top to bottom and codes each TIFF strip as
 * it computes it, so neither the HD nor the print file is ever whole in memory.
 *
 * The bleed without reading out of order. A wrapped top bleed is the image's bottom rows, which
 * a sequential read reaches last; a mirrored one reads the top rows backwards. So the HD rows the
 * top bleed needs are cut out first (a small file) and joined above the HD, in a cell as tall as
 * the HD, and the two are resized together to twice the cut height: the HD keeps exactly the
 * sampling grid of a resize of its own, the bleed is the same resample continued across the cut
 * line, and everything is read in order. The sides and the bottom are small layers composited
 * onto the image widened and lengthened with black: full-height strips of the resize for the
 * sides (corners included) and a full-width band for the bottom, each from a pass of its own into
 * an uncompressed TIFF, which libvips reads in any order (the mirrored ones flipped). sharp's own
 * `extend` would copy the whole image into memory for any fill but a colour.
 */
import path from 'node:path';
import sharp from 'sharp';
import { HD_ENCODINGS, printEncodingFor } from '../hd-encodings.js';
import type { PhysicalSize } from '../physical-size.js';
import { printLayout, type BleedMode, type PrintLayout } from './layout.js';

export interface PrintRenderSettings {
  dpi: number;
  bleedMm: number;
  compression: 'lzw' | 'deflate';
  bitDepth: 8 | 16;
}

export interface PrintRenderTask extends PrintRenderSettings {
  /** The HD file, PNG or JPEG. */
  sourcePath: string;
  /** Where the TIFF goes (written whole or not at all: the caller renames it in place). */
  outputPath: string;
  /** A folder for the side-bleed strips, the caller's to remove. */
  workDir: string;
  /** The ordered size the cut measures. */
  print: PhysicalSize;
  bleed: BleedMode;
  /** An output ICC profile's file (CMYK or RGB), or undefined for sRGB (libvips' own, embedded). */
  profilePath?: string;
}

export interface PrintRenderResult {
  width: number;
  height: number;
  bytes: number;
}

/** A TIFF over 4 GiB needs BigTIFF's 64-bit offsets; below, classic TIFF (what every RIP reads). */
const CLASSIC_TIFF_MAX_BYTES = 2 ** 32 - 64 * 2 ** 20;

/** The size of the HD, from its header. */
export async function sourceSize(sourcePath: string): Promise<{ width: number; height: number }> {
  const { width, height } = await sharp(sourcePath, { limitInputPixels: false }).metadata();
  if (!width || !height) throw new Error('Print render: the HD image has no size');
  return { width, height };
}

/**
 * Renders the print file; `onStage` hears each step done (the bleed cut out, the layers made)
 * before the long one, the main pass, whose progress the caller reads from the output's size.
 */
export async function renderPrintFile(
  task: PrintRenderTask,
  onStage: (stage: 'bands' | 'strips') => void = () => undefined,
): Promise<PrintRenderResult> {
  const source = await sourceSize(task.sourcePath);
  const layout = printLayout(source, task.print, task.dpi, task.bleedMm);
  let pipeline: sharp.Sharp;
  if (layout.bleedTop === 0) {
    pipeline = sharp(task.sourcePath, { limitInputPixels: false, sequentialRead: true }).resize(
      layout.cutWidth,
      layout.cutHeight,
      { fit: 'fill', kernel: 'lanczos3' },
    );
  } else {
    const region = await bleedAbove(task, source, layout);
    onStage('bands');
    const layers = await bleedLayers(task, layout, region);
    onStage('strips');
    pipeline = region(0, 0, layout.cutWidth, layout.bleedTop + layout.cutHeight)
      .extend({
        left: layout.bleedLeft,
        right: layout.bleedRight,
        bottom: layout.bleedBottom,
        background: '#000000',
      })
      .composite(layers)
      .removeAlpha();
  }
  const info = await encodePrint(pipeline, task, layout).toFile(task.outputPath);
  // The file's own header, not sharp's answer: sharp reports an extract's size even when the
  // image was extended after it.
  const written = await sourceSize(task.outputPath);
  if (written.width !== layout.width || written.height !== layout.height) {
    throw new Error(
      `Print render: wrote ${written.width}x${written.height}, not the layout's size`,
    );
  }
  return { ...written, bytes: info.size };
}

/** The colour conversion and the TIFF encoder of the task's settings, on `pipeline`. */
export function encodePrint(
  pipeline: sharp.Sharp,
  task: PrintRenderSettings & { profilePath?: string },
  layout: { width: number; height: number },
): sharp.Sharp {
  // 16 bits: the conversion to the output profile is then computed in 16 bits too (sharp's
  // icc_transform takes its depth from the image), CMYK included.
  const deep = task.bitDepth === 16 ? pipeline.toColourspace('rgb16') : pipeline;
  const coloured = deep.withIccProfile(task.profilePath ?? 'srgb');
  const row = HD_ENCODINGS[printEncodingFor(task.compression)];
  const uncompressed = layout.width * layout.height * 4 * (task.bitDepth / 8);
  return row.encode(coloured, 'streamed', task.dpi).tiff({
    bigtiff: uncompressed > CLASSIC_TIFF_MAX_BYTES,
  });
}

/** A rectangle of the resized image, in print rows from the top bleed's first (each call a new pass). */
type Region = (left: number, top: number, width: number, height: number) => sharp.Sharp;

/**
 * The HD with its top bleed's rows above it, resized: wrapped, the HD's bottom rows; mirrored,
 * its top rows upside down. They sit at the bottom of a cell as tall as the HD (arrayjoin's
 * cells are all the size of the largest image), whose rows above them nothing reads.
 */
async function bleedAbove(
  task: PrintRenderTask,
  source: { width: number; height: number },
  layout: PrintLayout,
): Promise<Region> {
  const rows = layout.sourceRowsAbove;
  const cut = path.join(task.workDir, 'above.tif');
  await sharp(task.sourcePath, { limitInputPixels: false, sequentialRead: true })
    .extract({
      left: 0,
      top: task.bleed === 'wrap' ? source.height - rows : 0,
      width: source.width,
      height: rows,
    })
    .keepIccProfile()
    .tiff({ compression: 'none' })
    .toFile(cut);
  const above =
    task.bleed === 'wrap'
      ? cut
      : await flipped(cut, path.join(task.workDir, 'above-flipped.tif'), 'flip');
  const { cutWidth, cutHeight, bleedTop } = layout;
  return (left, top, width, height) =>
    sharp([above, task.sourcePath], { join: { across: 1, valign: 'bottom' } })
      .resize(cutWidth, 2 * cutHeight, { fit: 'fill', kernel: 'lanczos3' })
      .extract({ left, top: cutHeight - bleedTop + top, width, height });
}

/** An uncompressed TIFF flipped upside down or left to right, read in any order: no copy in memory. */
async function flipped(from: string, to: string, how: 'flip' | 'flop'): Promise<string> {
  const image = sharp(from, { limitInputPixels: false, sequentialRead: false });
  await (how === 'flip' ? image.flip() : image.flop())
    .keepIccProfile()
    .tiff({ compression: 'none' })
    .toFile(to);
  return to;
}

/**
 * The side and bottom bleeds as composite layers: the side strips span the top bleed and the
 * image (wrapped: the opposite edge's columns; mirrored: the edge's own, flopped); the bottom band
 * spans the whole width (wrapped: the image's top rows; mirrored: its bottom rows, flipped),
 * widened the same way, which makes the bottom corners.
 */
async function bleedLayers(
  task: PrintRenderTask,
  layout: PrintLayout,
  region: Region,
): Promise<sharp.OverlayOptions[]> {
  const { cutWidth, cutHeight, bleedTop, bleedLeft, bleedRight, bleedBottom } = layout;
  const wrap = task.bleed === 'wrap';
  const file = (name: string) => path.join(task.workDir, `${name}.tif`);
  const pass = async (name: string, rectangle: sharp.Sharp) => {
    await rectangle.tiff({ compression: 'none' }).toFile(file(name));
    return file(name);
  };
  const layer = (input: string, left: number, top: number): sharp.OverlayOptions => ({
    input,
    left,
    top,
    limitInputPixels: false,
  });
  const tall = bleedTop + cutHeight;
  const layers: sharp.OverlayOptions[] = [];
  if (bleedLeft > 0) {
    const strip = await pass('left', region(wrap ? cutWidth - bleedLeft : 0, 0, bleedLeft, tall));
    layers.push(layer(wrap ? strip : await flipped(strip, file('left-flopped'), 'flop'), 0, 0));
  }
  if (bleedRight > 0) {
    const strip = await pass(
      'right',
      region(wrap ? 0 : cutWidth - bleedRight, 0, bleedRight, tall),
    );
    const input = wrap ? strip : await flipped(strip, file('right-flopped'), 'flop');
    layers.push(layer(input, bleedLeft + cutWidth, 0));
  }
  if (bleedBottom > 0) {
    const rows = await pass(
      'below',
      region(0, wrap ? bleedTop : tall - bleedBottom, cutWidth, bleedBottom),
    );
    const band = sharp(wrap ? rows : await flipped(rows, file('below-flipped'), 'flip'), {
      limitInputPixels: false,
      sequentialRead: false,
    }).extend({ left: bleedLeft, right: bleedRight, extendWith: wrap ? 'repeat' : 'mirror' });
    layers.push(layer(await pass('bottom', band), 0, tall));
  }
  return layers;
}
