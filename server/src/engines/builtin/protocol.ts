/** Messages between the builtin engine and its worker thread (`worker.ts`). */
import type { PreviewSettings } from '@tessera/contract';

/** The worker's `workerData`: the job's settings as they came (quilting reads all but the prompts). */
export interface WorkerJob {
  referencePath: string;
  settings: PreviewSettings;
}

export type WorkerMessage =
  /** Overall progress, 0..99, only ever rising (100 is reported once the file is in place). */
  | { type: 'progress'; percent: number }
  /** The encoded PNG (its buffer transferred); the engine writes it to the output path. */
  | { type: 'done'; width: number; height: number; png: Uint8Array }
  | { type: 'failed'; message: string };
