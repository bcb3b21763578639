// The reference worker thread (issue 27, part 5): one reference measured, or its lighting taken
// out, off the server's event loop. Started by worker-analyzer.ts through runtime/worker-job.ts.
import { parentPort, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { decodeToRaw, openImage } from '../../../imaging/decode.js';
import { fitLighting, removeLighting } from '../quilting/lighting.js';
import { analyseReference, SCALE_SIDE } from './analysis.js';
import type { ReferenceWorkerMessage, ReferenceWorkerTask } from './protocol.js';

/** The analysis reads at most SCALE_SIDE; libvips brings a large photo down to twice that first. */
const DECODE_SIDE = 2 * SCALE_SIDE;

const post = (message: ReferenceWorkerMessage, transfer: ArrayBuffer[] = []) =>
  parentPort?.postMessage(message, transfer);

async function analyse(path: string): Promise<void> {
  const image = await openImage(path);
  const { width = 0, height = 0, orientation = 1 } = await image.metadata();
  const { data, info } = await image
    .resize(DECODE_SIDE, DECODE_SIDE, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const verdict = analyseReference({ data, width: info.width, height: info.height });
  // EXIF orientations 5 to 8 turn the picture a quarter: its width is the file's height.
  const turned = orientation >= 5;
  post({
    type: 'done',
    kind: 'analyse',
    width: turned ? height : width,
    height: turned ? width : height,
    ...verdict,
  });
}

async function delight(path: string): Promise<void> {
  const image = await decodeToRaw(path);
  // Fitted on the opaque pixels, as the engine does with the mask on: transparent ones say nothing.
  const flat = removeLighting(image, fitLighting(image, true));
  let opaque = true;
  for (let p = 3; p < flat.data.length && opaque; p += 4) opaque = flat.data[p] === 255;
  const pipeline = sharp(flat.data, {
    raw: { width: flat.width, height: flat.height, channels: 4 },
  });
  const encoded = await (opaque ? pipeline.removeAlpha() : pipeline).png().toBuffer();
  // A copy owning its memory, so that it can be transferred rather than cloned.
  const png = new Uint8Array(encoded);
  post({ type: 'done', kind: 'remove-lighting', png }, [png.buffer]);
}

const task = workerData as ReferenceWorkerTask;
(task.kind === 'analyse' ? analyse(task.path) : delight(task.path)).catch((err: unknown) =>
  post({ type: 'error', message: err instanceof Error ? err.message : String(err) }),
);
