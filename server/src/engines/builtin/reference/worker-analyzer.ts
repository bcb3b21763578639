import type { ReferenceAnalyzer, ReferenceMeasure } from '../../../services/reference-analysis.js';
import { runWorkerJob } from '../../../runtime/worker-job.js';
import type { ReferenceWorkerDone, ReferenceWorkerTask } from './protocol.js';

const NAMES = { job: 'Reference analysis', worker: 'reference' };

/** The ReferenceAnalyzer port on the builtin engine's code, one worker thread per reference. */
export class WorkerReferenceAnalyzer implements ReferenceAnalyzer {
  async analyse(path: string, signal: AbortSignal): Promise<ReferenceMeasure> {
    const done = await this.run({ kind: 'analyse', path }, signal);
    if (done.kind !== 'analyse') throw new Error('The reference worker answered another task');
    return {
      width: done.width,
      height: done.height,
      figures: done.figures,
      warnings: done.warnings,
    };
  }

  async removeLighting(path: string, signal: AbortSignal): Promise<Uint8Array> {
    const done = await this.run({ kind: 'remove-lighting', path }, signal);
    if (done.kind !== 'remove-lighting') {
      throw new Error('The reference worker answered another task');
    }
    return done.png;
  }

  private run(task: ReferenceWorkerTask, signal: AbortSignal): Promise<ReferenceWorkerDone> {
    return runWorkerJob<ReferenceWorkerDone>(import.meta.url, 'worker', task, {
      // One quick step: nothing to show on the way.
      onProgress: () => undefined,
      signal,
      names: NAMES,
    });
  }
}
