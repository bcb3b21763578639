/**
 * The print render as the print-files service uses it (a port: the service knows no sharp and
 * no worker): estimate a print file's size, render one.
 */
import path from 'node:path';
import { startWorker } from '../../runtime/worker-url.js';
import { estimatePrintFile, type PrintEstimateTask, type PrintSizeEstimate } from './estimate.js';
import type { PrintWorkerMessage, PrintWorkerTask } from './protocol.js';
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
    return new Promise((resolve, reject) => {
      const worker = startWorker(import.meta.url, 'worker', { workerData: task });
      let settled = false;
      const settle = (action: () => void) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', abort);
        action();
        void worker.terminate();
      };
      const abort = () => settle(() => reject(signal.reason));
      signal.addEventListener('abort', abort, { once: true });
      worker.on('message', (message: PrintWorkerMessage) => {
        if (message.type === 'progress') onProgress(message.fraction * 100);
        else if (message.type === 'done') {
          const { width, height, bytes } = message;
          settle(() => resolve({ width, height, bytes }));
        } else settle(() => reject(new Error(`Print render failed: ${message.message}`)));
      });
      worker.once('error', (err) => settle(() => reject(err)));
      worker.once('exit', (code) =>
        settle(() => reject(new Error(`The print worker stopped (exit code ${code})`))),
      );
    });
  }
}
