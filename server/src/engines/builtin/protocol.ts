/** Messages between the builtin engine and its worker thread (`worker.ts`). */
import type { PreviewSettings, SynthesisUsed } from '@tessera/contract';

/** The worker's first message: the job's settings as they came (prompts/apply.ts reads prompts). */
export interface WorkerJob {
  referencePath: string;
  settings: PreviewSettings;
  /** Faces of a series (issue 25), 1 for a single image. */
  faces: number;
}

export type WorkerMessage =
  /** Overall progress, 0..99, only ever rising (100 is reported once the file is in place). */
  | { type: 'progress'; percent: number }
  /**
   * One face's encoded PNG (its buffer transferred; face 1 for a single image), as each is
   * finished; the engine writes it to the face's path. `synthesis`: the mode that made it.
   */
  | {
      type: 'done';
      face: number;
      width: number;
      height: number;
      png: Uint8Array;
      synthesis: SynthesisUsed;
    }
  | { type: 'failed'; message: string };
