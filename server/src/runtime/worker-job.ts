import { startWorker } from './worker-url.js';

/** What a one-job worker posts: progress while it works, then its result or its failure. */
export type WorkerJobMessage<Done extends { type: 'done' }> =
  { type: 'progress'; fraction: number } | Done | { type: 'error'; message: string };

export interface WorkerJobOptions {
  /** 0 to 100. */
  onProgress: (percent: number) => void;
  /** Ends the worker at once and rejects with the signal's reason. */
  signal: AbortSignal;
  /** What the errors call the job and its worker: 'Print render' failed, the 'print' worker. */
  names: { job: string; worker: string };
}

/**
 * Runs the worker `./<entry>.js` beside `callerUrl` (pass `import.meta.url`) on one task, and
 * settles with its `done` message, its failure, an error of the thread or its exit before the
 * end, or the abort: whichever comes first; the worker is terminated then.
 */
export function runWorkerJob<Done extends { type: 'done' }>(
  callerUrl: string,
  entry: string,
  task: unknown,
  { onProgress, signal, names }: WorkerJobOptions,
): Promise<Done> {
  // An abort listener never hears a signal aborted already: the worker would run to its end.
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const worker = startWorker(callerUrl, entry, { workerData: task });
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
    worker.on('message', (message: WorkerJobMessage<Done>) => {
      if (message.type === 'progress') onProgress(message.fraction * 100);
      else if (message.type === 'done') settle(() => resolve(message));
      else settle(() => reject(new Error(`${names.job} failed: ${message.message}`)));
    });
    worker.once('error', (err) => settle(() => reject(err)));
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`The ${names.worker} worker stopped (exit code ${code})`))),
    );
  });
}
