// The print worker thread: one print file's render, stoppable at once (the job's signal
// terminates the thread; libvips has no other way to stop a pipeline under way).
import { parentPort, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { renderWithProgress } from './progress.js';
import type { PrintWorkerMessage, PrintWorkerTask } from './protocol.js';

// Every pixel is computed once: libvips' operation cache would only hold what nobody asks again.
sharp.cache(false);

const post = (message: PrintWorkerMessage) => parentPort?.postMessage(message);

renderWithProgress(workerData as PrintWorkerTask, (fraction) =>
  post({ type: 'progress', fraction }),
)
  .then((result) => post({ type: 'done', ...result }))
  .catch((err: unknown) =>
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) }),
  );
