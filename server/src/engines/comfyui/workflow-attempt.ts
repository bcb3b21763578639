/**
 * One try at a workflow job on one server of the pool; comfyui-engine.ts tries again through
 * outages. A try uploads the input to the leased server and runs the prompt there, or picks up the
 * prompt an earlier try queued; then it downloads the output node's image, forgets the prompt on
 * the server and tells the pool how the server did.
 */
import type { GeneratedImage, RemotePrompt, RemoteWork } from '../engine.js';
import type { HdEncoding } from '../../imaging/hd-encodings.js';
import type { ComfyImageRef, ComfyWorkflow, HistoryEntry } from './api-types.js';
import type { ComfyClient } from './client.js';
import {
  ComfyExecutionError,
  ComfyNodeFailure,
  ComfyPromptLostError,
  ComfyServerError,
  ComfyValidationError,
} from './errors.js';
import { writeOutput, type PreparedImage } from './output.js';
import type { Lease, ServerPool } from './pool.js';
import {
  resumePrompt,
  runPrompt,
  type PromptLog,
  type PromptResult,
  type RunPromptOptions,
} from './run-prompt.js';
import type { UploadSlots } from './upload-slots.js';

/** Where the fraction of the prompt executed lands in the job's percent. */
const EXECUTION_FROM = 5;
const EXECUTION_TO = 95;

/** One try at running the job's prompt: the prompt it queued, if it got that far. */
export interface Attempt {
  queued?: RemotePrompt;
}

/** One run of a workflow template on an input image. */
export interface WorkflowJob {
  inputPath: string;
  /** Cut the input to its opaque region first (see prepareImage). */
  mask: boolean;
  /** The template filled in with the uploaded input's LoadImage value. */
  fill: (uploaded: string, input: PreparedImage) => ComfyWorkflow;
  /** The node whose saved image is the result. */
  outputNode: string;
  /** Where the result goes, in what encoding, at what size; seamless: resampled wrapping round. */
  output: {
    outputPath: string;
    encoding: HdEncoding;
    width: number;
    height: number;
    seamless?: boolean;
  };
  remote: RemoteWork | undefined;
  /** Whether a prompt found after a restart is this job's work (a series: this face's). */
  accepts?: (prompt: ComfyWorkflow | undefined) => boolean;
}

/** What the tries share: the engine's pool, upload slots and prompt settings. */
export interface AttemptSettings {
  pool: ServerPool;
  uploadSlots: UploadSlots;
  /** The subfolder of ComfyUI's temp folder uploads go to. */
  uploadSubfolder: string;
  /** The execution deadline and how a prompt is followed (run-prompt.ts). */
  prompt:
    Pick<RunPromptOptions, 'deadlineMs' | 'pollMs' | 'reconnectMs' | 'historyWaitMs'> | undefined;
  log: PromptLog | undefined;
}

export class WorkflowAttempts {
  constructor(private readonly settings: AttemptSettings) {}

  /**
   * The prompt `previous` on its server, if that server answers and still has it: its image.
   * Undefined when it must be queued again (the server lost it or is unreachable).
   */
  async resume(
    previous: RemotePrompt,
    job: WorkflowJob,
    report: (percent: number) => void,
    signal: AbortSignal,
  ): Promise<GeneratedImage | undefined> {
    const lease = await this.settings.pool.acquireServer(previous.server, signal);
    if (!lease) return undefined;
    return this.onLease(lease, signal, async () => {
      const result = await resumePrompt(lease.client, previous, {
        ...this.runOptions(job, report, signal, lease, {}),
        accepts: job.accepts,
      });
      if (!result) {
        this.settings.log?.info(
          { server: previous.server, prompt: previous.promptId },
          'ComfyUI no longer has the prompt (or it failed there, or it was other work): queueing it again',
        );
      }
      return result && (await this.deliver(lease, result, job, report, signal));
    }).catch((error: unknown) => {
      // Unreachable now: queue the work afresh where a server answers.
      if (error instanceof ComfyServerError && !signal.aborted) return undefined;
      throw error;
    });
  }

  /** Uploads the input to the leased server, runs the prompt there and delivers its image. */
  submit(
    lease: Lease,
    input: PreparedImage,
    job: WorkflowJob,
    report: (percent: number) => void,
    signal: AbortSignal,
    attempt: Attempt,
  ): Promise<GeneratedImage> {
    return this.onLease(lease, signal, async () => {
      const slot = await this.settings.uploadSlots.take(lease.client, signal);
      let result: PromptResult;
      try {
        const uploaded = await this.upload(lease.client, slot.filename, input.png, signal);
        report(2);
        const prompt = job.fill(uploaded, input);
        result = await runPrompt(
          lease.client,
          prompt,
          this.runOptions(job, report, signal, lease, attempt),
        );
      } finally {
        // The prompt is over (or never queued): its input is not read again.
        slot.release();
      }
      return this.deliver(lease, result, job, report, signal);
    });
  }

  /**
   * Runs `work` on the leased server; a server failure leaves that server out, a workflow failure
   * has it checked again (it may lack a model now) before its next job.
   */
  private async onLease<T>(lease: Lease, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      if (result) lease.succeeded();
      return result;
    } catch (error) {
      if (!signal.aborted) {
        if (error instanceof ComfyServerError) lease.fail(error);
        else if (
          error instanceof ComfyExecutionError ||
          error instanceof ComfyValidationError ||
          error instanceof ComfyPromptLostError
        ) {
          lease.suspect();
        }
        if (error instanceof ComfyNodeFailure) lease.runFailed(error);
      }
      throw error;
    } finally {
      lease.release();
    }
  }

  private runOptions(
    job: WorkflowJob,
    report: (percent: number) => void,
    signal: AbortSignal,
    lease: Lease,
    attempt: Attempt,
  ): RunPromptOptions {
    return {
      ...this.settings.prompt,
      ...(this.settings.log && { log: this.settings.log }),
      signal,
      // A farm: a job whose server drops goes to another that is up at once.
      elsewhere: () => this.settings.pool.anyUp(lease.client),
      outputNode: job.outputNode,
      onQueued: async ({ promptId, clientId }) => {
        lease.queued(promptId);
        report(EXECUTION_FROM);
        const noted: RemotePrompt = { server: lease.client.displayUrl, promptId, clientId };
        attempt.queued = noted;
        await job.remote?.queued(noted);
      },
      onProgress: (fraction) =>
        report(EXECUTION_FROM + Math.floor(fraction * (EXECUTION_TO - EXECUTION_FROM))),
    };
  }

  /** Downloads the output node's image to the job's output path, then forgets the prompt. */
  private async deliver(
    lease: Lease,
    result: PromptResult,
    job: WorkflowJob,
    report: (percent: number) => void,
    signal: AbortSignal,
  ): Promise<GeneratedImage> {
    report(EXECUTION_TO);
    const image = outputImage(result.history, job.outputNode);
    if (!image) {
      throw new ComfyExecutionError(
        lease.client.displayUrl,
        `ComfyUI finished prompt ${result.promptId} without an image from node ${job.outputNode}`,
      );
    }
    const { outputPath, encoding, width, height, seamless } = job.output;
    const written = await writeOutput(
      lease.client,
      image,
      outputPath,
      encoding,
      { width, height },
      signal,
      seamless,
    );
    // Kept until now so that a restart mid-download still finds the result.
    await lease.client.deleteHistory([result.promptId]).catch(() => undefined);
    report(100);
    return written;
  }

  /**
   * POST /upload/image over the job's slot in the temp folder; the LoadImage value, annotated
   * "[temp]" so that LoadImage looks there ("tessera/slot-0.png [temp]").
   */
  private async upload(
    client: ComfyClient,
    filename: string,
    png: Buffer,
    signal: AbortSignal,
  ): Promise<string> {
    const uploaded = await client.uploadImage(
      png,
      filename,
      { subfolder: this.settings.uploadSubfolder, overwrite: true, type: 'temp' },
      signal,
    );
    const name = uploaded.subfolder ? `${uploaded.subfolder}/${uploaded.name}` : uploaded.name;
    return uploaded.type === 'temp' ? `${name} [temp]` : name;
  }
}

/** The output node's first image, else the first image any node saved. */
function outputImage(history: HistoryEntry, outputNode: string): ComfyImageRef | undefined {
  const first = (images: unknown): ComfyImageRef | undefined =>
    Array.isArray(images) && images.length > 0 ? (images[0] as ComfyImageRef) : undefined;
  const own = first(history.outputs[outputNode]?.images);
  if (own) return own;
  for (const output of Object.values(history.outputs)) {
    const image = first(output.images);
    if (image && image.type === 'output') return image;
  }
  return undefined;
}
