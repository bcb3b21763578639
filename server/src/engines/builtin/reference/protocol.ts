import type { ReferenceFigures, ReferenceWarningCode } from '@tessera/contract';
import type { WorkerJobMessage } from '../../../runtime/worker-job.js';

/** What the reference worker is given: a checked upload's path, and what to do with it. */
export interface ReferenceWorkerTask {
  kind: 'analyse' | 'remove-lighting';
  path: string;
}

/** The worker's result: the measures (analyse), or the PNG (remove-lighting). */
export type ReferenceWorkerDone =
  | {
      type: 'done';
      kind: 'analyse';
      width: number;
      height: number;
      figures: ReferenceFigures;
      warnings: ReferenceWarningCode[];
    }
  | { type: 'done'; kind: 'remove-lighting'; png: Uint8Array };

export type ReferenceWorkerMessage = WorkerJobMessage<ReferenceWorkerDone>;
