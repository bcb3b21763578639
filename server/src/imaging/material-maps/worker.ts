// The material-maps worker thread: one job's maps, off the server's event loop.
import fs from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { MATERIAL_PREVIEW_MAX_SIDE } from '@tessera/contract';
import sharp from 'sharp';
import { settingsFor } from './map-settings.js';
import { MAP_FORMATS, MATERIAL_MAP_NAMES, type MaterialMapName } from './maps.js';
import { PngStreamWriter } from './png-stream.js';
import { processInStrips, type RowSource } from './strips.js';
import type { MapsWorkerMessage, MapsWorkerTask } from './protocol.js';

// Each strip is read once: libvips' cache would only hold pixels nobody asks for again.
sharp.cache(false);
sharp.concurrency(1);

/** Share of the progress bar the luminance conversion takes; the strips take the rest. */
const CONVERSION_SHARE = 0.1;

const post = (message: MapsWorkerMessage) => parentPort?.postMessage(message);

async function run(task: MapsWorkerTask): Promise<void> {
  const { width, height } = await sharp(task.sourcePath, { limitInputPixels: false }).metadata();
  if (!width || !height) throw new Error('The image has no size');
  // Luminance to libvips' own uncompressed format, decoded in one sequential pass: its rows can
  // then be read strip by strip in any order (the wrap-around reads the bottom rows first).
  const luminancePath = path.join(task.workDir, 'luminance.v');
  await sharp(task.sourcePath, { limitInputPixels: false, sequentialRead: true })
    .flatten({ background: '#808080' })
    .greyscale()
    .toColourspace('b-w')
    .toFile(luminancePath);
  post({ type: 'progress', fraction: CONVERSION_SHARE });

  const source: RowSource = {
    width,
    height,
    readRows: async (top, count) => {
      const rows = await sharp(luminancePath, { limitInputPixels: false })
        .extract({ left: 0, top, width, height: count })
        // Raw output is sRGB unless told: one grey band is what the strips read.
        .toColourspace('b-w')
        .raw()
        .toBuffer();
      if (rows.length !== width * count) throw new Error('Luminance rows of the wrong size');
      return new Uint8Array(rows.buffer, rows.byteOffset, rows.length);
    },
  };
  const edges = task.seamless ? 'wrap' : 'clamp';
  const settings = settingsFor(width, height, edges, task.height, task.finish);
  const files = {} as Record<MaterialMapName, string>;
  const writers = {} as Record<MaterialMapName, PngStreamWriter>;
  for (const map of MATERIAL_MAP_NAMES) {
    files[map] = path.join(task.workDir, `${map}.png`);
    writers[map] = new PngStreamWriter(
      { width, height, ...MAP_FORMATS[map] },
      fs.createWriteStream(files[map]),
    );
  }
  try {
    const stats = await processInStrips(
      source,
      settings,
      {
        row: (rows) => {
          for (const map of MATERIAL_MAP_NAMES) writers[map].writeRow(rows[map]);
        },
        flush: async () => {
          for (const map of MATERIAL_MAP_NAMES) await writers[map].drain();
        },
      },
      {
        onProgress: (fraction) =>
          post({
            type: 'progress',
            fraction: CONVERSION_SHARE + (1 - CONVERSION_SHARE) * fraction,
          }),
      },
    );
    for (const map of MATERIAL_MAP_NAMES) await writers[map].end();
    await fs.promises.rm(luminancePath, { force: true });
    // Small copies for the browser's 3D preview, which could not load a 200 MP map; libvips
    // shrinks a file in one sequential pass, never holding it whole.
    const previews = {} as Record<MaterialMapName, string>;
    for (const map of MATERIAL_MAP_NAMES) {
      previews[map] = path.join(task.workDir, `${map}.preview.png`);
      await shrink(files[map]).png().toFile(previews[map]);
    }
    const colourPreviewPath = path.join(task.workDir, 'colour.preview.jpg');
    await shrink(task.sourcePath)
      .flatten({ background: '#808080' })
      .jpeg({ quality: 88 })
      .toFile(colourPreviewPath);
    post({
      type: 'done',
      width,
      height,
      maxRowsHeld: stats.maxRowsHeld,
      maps: MATERIAL_MAP_NAMES.map((map) => ({
        map,
        path: files[map],
        bytes: fs.statSync(files[map]).size,
        previewPath: previews[map],
      })),
      colourPreviewPath,
    });
  } catch (err) {
    for (const map of MATERIAL_MAP_NAMES) writers[map].destroy();
    throw err;
  }
}

function shrink(file: string): sharp.Sharp {
  return sharp(file, { limitInputPixels: false, sequentialRead: true }).resize(
    MATERIAL_PREVIEW_MAX_SIDE,
    MATERIAL_PREVIEW_MAX_SIDE,
    { fit: 'inside', withoutEnlargement: true },
  );
}

run(workerData as MapsWorkerTask).catch((err: unknown) =>
  post({ type: 'error', message: err instanceof Error ? err.message : String(err) }),
);
