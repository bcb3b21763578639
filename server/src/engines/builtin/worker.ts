/**
 * The builtin engine's worker thread: decodes the reference, resizes it to the working size,
 * applies the prompts to it (prompts/apply.ts: colours, finish, then the scale), synthesizes the
 * texture (quilting, or blending for a stochastic reference: blending/dispatch.ts) and encodes
 * the PNG, reporting progress on the way. All the heavy work of a preview happens here, off the
 * server's event loop. Started by builtin-engine.ts, ahead of its job (spare-worker.ts), and
 * sent a {@link WorkerJob} as its first message; a series makes every face here, in one worker,
 * posting each face's PNG as it is encoded. It may be terminated at any time, and
 * writes no file (the engine does, so that a terminated worker can leave none behind).
 */
import { parentPort } from 'node:worker_threads';
import type { SynthesisUsed } from '@tessera/contract';
import sharp from 'sharp';
import { decodeToRaw } from '../../imaging/decode.js';
import type { RawImage } from '../../imaging/raw-image.js';
import { chooseSynthesis, synthesizeFaces } from './blending/dispatch.js';
import { applyPrompts, promptPlan, scaledWorkingSize } from './prompts/apply.js';
import type { WorkerJob, WorkerMessage } from './protocol.js';
import { workingSize } from './quilting/synthesize.js';

/** Progress milestones, in percent: decoded and resized, synthesized, encoded. */
const DECODED = 5;
const SYNTHESIZED = 95;
const ENCODED = 99;

const port = parentPort;
if (!port) throw new Error('worker.ts runs as a worker thread');
const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer);

let reported = -1;
function report(percent: number): void {
  const p = Math.floor(percent);
  if (p <= reported) return;
  reported = p;
  post({ type: 'progress', percent: p });
}

async function run(job: WorkerJob): Promise<void> {
  report(0);
  const decoded = await decodeToRaw(job.referencePath);
  const { width: W, height: H } = job.settings;
  // The prompts (prompts/apply.ts): colours and finish on the working reference, then the scale.
  const plan = promptPlan(job.settings);
  const working = await toWorkingSize(decoded, workingSize(decoded.width, decoded.height, W, H));
  const { reference: prepared, options: settings } = applyPrompts(working, job.settings, plan);
  const scaled = scaledWorkingSize(decoded.width, decoded.height, W, H, plan.scale);
  const reference = await toWorkingSize(prepared, scaled);
  report(DECODED);
  const onProgress = (fraction: number) => report(DECODED + (SYNTHESIZED - DECODED) * fraction);
  // Quilting or blending (issue 27): the settings' choice, or by the reference when 'auto'.
  const { used } = chooseSynthesis(reference, settings);
  // Each face of a series is encoded (on sharp's threads) while the next one is synthesized.
  const posted: Promise<void>[] = [];
  synthesizeFaces(reference, settings, job.faces, used, onProgress, (face, image) => {
    posted.push(encodeAndPost(face, image, face === job.faces, used));
  });
  await Promise.all(posted);
}

/** Encodes a face and posts it; `last`: the job's last face (progress reaches ENCODED). */
async function encodeAndPost(
  face: number,
  image: RawImage,
  last: boolean,
  synthesis: SynthesisUsed,
): Promise<void> {
  const encoded = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 4 },
  })
    .removeAlpha()
    .png()
    .toBuffer();
  if (last) report(ENCODED);
  // A copy owning its memory, so that it can be transferred rather than cloned.
  const png = new Uint8Array(encoded);
  post({ type: 'done', face, width: image.width, height: image.height, png, synthesis }, [
    png.buffer,
  ]);
}

/** The reference resized (Lanczos, alpha-aware) to `size`, a working size, if not already. */
async function toWorkingSize(image: RawImage, size: { width: number; height: number }) {
  if (size.width === image.width && size.height === image.height) return image;
  const { data, info } = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 4 },
  })
    .resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

// The job comes as the first message: the thread may be started (and its modules loaded) ahead
// of it (spare-worker.ts).
port.once('message', (job: WorkerJob) => {
  run(job).catch((error: unknown) => {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  });
});
