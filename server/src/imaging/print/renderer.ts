/**
 * The print render as the print-files service uses it (a port: the service knows no sharp and
 * no worker): estimate a print file's size, render one.
 */
import path from 'node:path';
import { runWorkerJob } from '../../runtime/worker-job.js';
import { estimatePrintFile, type PrintEstimateTask, type PrintSizeEstimate } from './estimate.js';
import type { PrintWorkerDone, PrintWorkerTask } from './protocol.js';
import type { PrintRenderResult } from './render.js';

export type { BleedMode } from './layout.js';
export type { PrintEstimateTask, PrintSizeEstimate } from './estimate.js';
export type { PrintRenderResult } from './render.js';

/**
 * A print file to render: the work folder is the output's own (a scratch folder of the job's),
 * where the side strips go beside it.
 */
export type PrintRenderJob = Omit<PrintWorkerTask, 'workDir'>;

export interface PrintRenderOptions {
  /** 0 to 100. */
  onProgress: (percent: number) => void;
  /** Stops the render at once; the output is left incomplete for the caller to discard. */
  signal: AbortSignal;
}

export interface PrintRenderer {
  estimate(task: PrintEstimateTask): Promise<PrintSizeEstimate>;
  render(task: PrintRenderJob, options: PrintRenderOptions): Promise<PrintRenderResult>;
}

/** Estimates in this thread (a fraction of a second); renders in a worker thread of its own. */
export class WorkerPrintRenderer implements PrintRenderer {
  estimate(task: PrintEstimateTask): Promise<PrintSizeEstimate> {
    return estimatePrintFile(task);
  }

  render(
    job: PrintRenderJob,
    { onProgress, signal }: PrintRenderOptions,
  ): Promise<PrintRenderResult> {
    signal.throwIfAborted();
    const task: PrintWorkerTask = { ...job, workDir: path.dirname(job.outputPath) };
    return runWorkerJob<PrintWorkerDone>(import.meta.url, 'worker', task, {
      onProgress,
      signal,
      names: { job: 'Print render', worker: 'print' },
    }).then(({ width, height, bytes }) => ({ width, height, bytes }));
  }
}
