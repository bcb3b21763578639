import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../runtime/worker-url.js';

/**
 * One worker thread of the builtin engine started ahead of the job that will use it, so that a
 * job does not wait for a thread to start and load its modules (sharp, the synthesis; from the
 * TypeScript sources also tsx's compilation): about 0.1 s of a job from `server/dist`, most of
 * a second from the sources (docs/engines.md, Speed). The first job starts its own; each job
 * taken from here starts the next spare. A spare does nothing until it is sent its job, keeps
 * no process alive (unref) and is replaced if it dies.
 */
export class SpareWorker {
  private spare: Worker | undefined;
  private closed = false;

  constructor(
    private readonly callerUrl: string,
    private readonly entry: string,
  ) {}

  /** A started worker, given to the caller (referenced again), and the next spare started. */
  take(): Worker {
    const worker = this.spare ?? startWorker(this.callerUrl, this.entry);
    this.spare = undefined;
    worker.removeAllListeners('error').removeAllListeners('exit');
    worker.ref();
    if (!this.closed) this.startSpare();
    return worker;
  }

  /** Stops the spare, if any; no more are started. */
  close(): void {
    this.closed = true;
    const spare = this.spare;
    this.spare = undefined;
    void spare?.terminate();
  }

  private startSpare(): void {
    const worker = startWorker(this.callerUrl, this.entry);
    worker.unref();
    const forget = () => {
      if (this.spare === worker) this.spare = undefined;
    };
    worker.once('error', forget).once('exit', forget);
    this.spare = worker;
  }
}
