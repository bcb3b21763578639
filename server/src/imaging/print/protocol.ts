import type { WorkerJobMessage } from '../../runtime/worker-job.js';
import type { PrintRenderResult, PrintRenderTask } from './render.js';

/** What the print worker is given: the render's task, and its colour space for the estimate. */
export interface PrintWorkerTask extends PrintRenderTask {
  colourSpace: 'rgb' | 'cmyk';
}

/** The worker's result: the file's pixels and bytes. */
export type PrintWorkerDone = { type: 'done' } & PrintRenderResult;

export type PrintWorkerMessage = WorkerJobMessage<PrintWorkerDone>;
