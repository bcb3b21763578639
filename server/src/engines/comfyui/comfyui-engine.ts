/**
 * The ComfyUI engine (DESIGN §5, docs/comfyui.md): fills the workflow templates, runs them on the
 * least busy of the configured ComfyUI servers and writes the result to the job's outputPath
 * exactly as the builtin engine does; the generation and HD services then store the files,
 * thumbnails and metadata.
 *
 * Progress: 0–5 % uploading and queueing, 5–95 % the prompt's execution (see run-prompt.ts),
 * 95–100 % the download; only rising values are reported, 100 once the file is in place.
 *
 * Errors: a refused workflow (node_errors) names the nodes and reasons; a failure while running
 * names the node; a server that cannot be reached (network failure, timeout, 5xx) is left out for
 * a while (pool.ts) and the job fails, for the job runner to retry on another server; a 4xx is
 * the job's error alone.
 *
 * Restarts: the queued prompt is noted with the job (`remote.queued`); a rerun after a restart
 * picks it up from that server's /history or /queue instead of queueing it again.
 *
 * Outages (outage.ts): a server that cannot be reached, or came back without the prompt, does not
 * fail the job for `outageWindowMs`: the prompt is picked up where it is, or queued again on the
 * first server that answers (another of the farm, or the same one once it is back). A job whose
 * server drops while another of the farm is up moves there at once (run-prompt.ts).
 *
 * Cleanup: ComfyUI has no route to delete a file, so uploads overwrite a few numbered slots in its
 * temp folder (upload-slots.ts: one per prompt in flight on that server), and each prompt's
 * history entry is deleted once it is over.
 */
import { previewSettingsIn } from '@tessera/contract';
import type {
  Engine,
  EngineHealth,
  GeneratedImage,
  GenerateParams,
  ProgressReporter,
  RemotePrompt,
  RemoteWork,
  UpscaleParams,
} from '../engine.js';
import type { HdEncoding } from '../../imaging/hd-encodings.js';
import type { ComfyImageRef, ComfyWorkflow, HistoryEntry } from './api-types.js';
import { templateNeeds } from './capabilities.js';
import { ComfyClient, type ComfyClientOptions } from './client.js';
import {
  ComfyExecutionError,
  ComfyNodeFailure,
  ComfyPromptLostError,
  ComfyServerError,
  ComfyServerLeftError,
  ComfyValidationError,
} from './errors.js';
import { isOutage, OutageWindow } from './outage.js';
import { prepareImage, writeOutput, type PreparedImage } from './output.js';
import { ServerPool, type Lease, type PoolChange, type PoolOptions } from './pool.js';
import {
  resumePrompt,
  runPrompt,
  type PromptLog,
  type PromptResult,
  type RunPromptOptions,
} from './run-prompt.js';
import {
  fillHd,
  fillPreview,
  HD_NODES,
  loadWorkflowTemplates,
  PREVIEW_NODES,
  type WorkflowTemplates,
} from './workflows.js';
import { UploadSlots } from './upload-slots.js';

export interface ComfyUIEngineOptions {
  /** COMFYUI_URLS: base URLs of the ComfyUI servers. */
  urls: string[];
  /** COMFYUI_WORKFLOWS_DIR: the operator's preview.json / hd.json. */
  workflowsDir?: string;
  client?: ComfyClientOptions;
  pool?: PoolOptions;
  /** The subfolder of ComfyUI's temp folder uploads go to. */
  uploadSubfolder?: string;
  /** This process's name (INSTANCE_NAME): its upload slots are named after it (upload-slots.ts). */
  instance?: string;
  /** The execution deadline and how a prompt is followed (run-prompt.ts). */
  prompt?: Pick<RunPromptOptions, 'deadlineMs' | 'pollMs' | 'reconnectMs' | 'historyWaitMs'>;
  /** COMFYUI_OUTAGE_WINDOW_MS: how long a job rides out its servers' outages (default 5 min). */
  outageWindowMs?: number;
  /** Where outages, resubmissions and websocket reopenings are told. */
  log?: PromptLog;
}

const DEFAULT_OUTAGE_WINDOW_MS = 5 * 60_000;

/** Where the fraction of the prompt executed lands in the job's percent. */
const EXECUTION_FROM = 5;
const EXECUTION_TO = 95;

/** One try at running the job's prompt: the prompt it queued, if it got that far. */
interface Attempt {
  queued?: RemotePrompt;
}

/** One run of a workflow template on an input image. */
interface WorkflowJob {
  inputPath: string;
  /** Cut the input to its opaque region first (see prepareImage). */
  mask: boolean;
  /** The template filled in with the uploaded input's LoadImage value. */
  fill: (uploaded: string, input: PreparedImage) => ComfyWorkflow;
  /** The node whose saved image is the result. */
  outputNode: string;
  /** Where the result goes, in what encoding, at what size. */
  output: { outputPath: string; encoding: HdEncoding; width: number; height: number };
  remote: RemoteWork | undefined;
}

export class ComfyUIEngine implements Engine {
  readonly name = 'comfyui';
  /** The templates in use, checked when the engine is made (a bad one stops the server start). */
  readonly templates: WorkflowTemplates;
  private readonly pool: ServerPool;
  private readonly uploadSubfolder: string;
  private readonly uploadSlots: UploadSlots;
  private readonly promptOptions: ComfyUIEngineOptions['prompt'];
  private readonly outageWindowMs: number;
  private readonly log: PromptLog | undefined;

  constructor(options: ComfyUIEngineOptions) {
    this.templates = loadWorkflowTemplates(options.workflowsDir);
    this.pool = new ServerPool(
      options.urls.map((url) => new ComfyClient(url, options.client)),
      options.pool,
      templateNeeds({ preview: this.templates.preview.workflow, hd: this.templates.hd.workflow }),
    );
    this.uploadSubfolder = options.uploadSubfolder ?? 'tessera';
    this.uploadSlots = new UploadSlots(this.uploadSubfolder, options.instance);
    this.promptOptions = options.prompt;
    this.outageWindowMs = options.outageWindowMs ?? DEFAULT_OUTAGE_WINDOW_MS;
    this.log = options.log;
  }

  generate(
    params: GenerateParams,
    progress: ProgressReporter,
    signal: AbortSignal,
  ): Promise<GeneratedImage> {
    return this.runWorkflow(
      {
        inputPath: params.referencePath,
        mask: params.mask,
        outputNode: PREVIEW_NODES.output.id,
        fill: (uploaded) =>
          fillPreview(this.templates.preview, {
            ...previewSettingsIn(params),
            referenceImage: uploaded,
          }),
        // Previews are PNG.
        output: { ...params, encoding: 'png' },
        remote: params.remote,
      },
      progress,
      signal,
    );
  }

  upscale(
    params: UpscaleParams,
    progress: ProgressReporter,
    signal: AbortSignal,
  ): Promise<GeneratedImage> {
    return this.runWorkflow(
      {
        inputPath: params.sourcePath,
        mask: false,
        outputNode: HD_NODES.output.id,
        fill: (uploaded, source) =>
          fillHd(this.templates.hd, {
            sourceImage: uploaded,
            sourceWidth: source.width,
            sourceHeight: source.height,
            ...params.factors,
            seed: params.seed,
            seamless: params.seamless,
          }),
        output: params,
        remote: params.remote,
      },
      progress,
      signal,
    );
  }

  /** Checks every server's node types and models at start; what /api/health would say. */
  async start(): Promise<EngineHealth> {
    await this.pool.checkAll();
    return this.pool.health();
  }

  health(): Promise<EngineHealth> {
    return this.pool.health();
  }

  serverStates(): string[] {
    return this.pool.states();
  }

  /** Tells `listener` of each change of a server's state (down, up, failing ...). */
  onServerChange(listener: (change: PoolChange) => void): () => void {
    return this.pool.onChange(listener);
  }

  /** Stops the timers that check failed servers again. */
  close(): void {
    this.pool.close();
  }

  /**
   * The steps both jobs take: pick up the prompt an earlier run queued if its server still has
   * it; else prepare the input image, upload it to the server the pool picks, fill the template
   * with its name and run the prompt. Then write the output node's image. An outage (a server
   * unreachable or restarted) within the window starts these steps over with the prompt last
   * queued: picked up if its server still has it, else queued again where a server answers.
   */
  private async runWorkflow(
    job: WorkflowJob,
    progress: ProgressReporter,
    signal: AbortSignal,
  ): Promise<GeneratedImage> {
    const report = rising(progress);
    report(0);
    const outage = new OutageWindow(this.outageWindowMs);
    let previous = job.remote?.previous;
    let input: PreparedImage | undefined;
    for (;;) {
      const attempt: Attempt = {};
      try {
        if (previous) {
          const resumed = await this.resume(previous, job, report, signal);
          if (resumed) return resumed;
        }
        input ??= await prepareImage(job.inputPath, job.mask);
        const lease = await this.pool.acquire(signal);
        return await this.submit(lease, input, job, report, signal, attempt);
      } catch (error) {
        if (signal.aborted || !isOutage(error)) throw error;
        const left = outage.note();
        if (left <= 0) throw error;
        // The prompt to look for once a server answers; one the server lost, or one left for
        // another server that is up, is queued again.
        previous =
          error instanceof ComfyPromptLostError || error instanceof ComfyServerLeftError
            ? undefined
            : (attempt.queued ?? previous);
        this.log?.warn(
          { err: (error as Error).message, prompt: previous?.promptId, leftMs: left },
          'ComfyUI outage: the job waits for a server and goes on',
        );
        if (!this.pool.anyUp() && !(error instanceof ComfyPromptLostError)) {
          await this.pool.whenServerMayAnswer(signal, left);
        }
      }
    }
  }

  /**
   * The prompt `previous` on its server, if that server answers and still has it: its image.
   * Undefined when it must be queued again (the server lost it or is unreachable).
   */
  private async resume(
    previous: RemotePrompt,
    job: WorkflowJob,
    report: (percent: number) => void,
    signal: AbortSignal,
  ): Promise<GeneratedImage | undefined> {
    const lease = await this.pool.acquireServer(previous.server, signal);
    if (!lease) return undefined;
    return this.onLease(lease, signal, async () => {
      const result = await resumePrompt(
        lease.client,
        previous,
        this.runOptions(job, report, signal, lease, {}),
      );
      if (!result) {
        this.log?.info(
          { server: previous.server, prompt: previous.promptId },
          'ComfyUI no longer has the prompt (or it failed there): queueing it again',
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
  private submit(
    lease: Lease,
    input: PreparedImage,
    job: WorkflowJob,
    report: (percent: number) => void,
    signal: AbortSignal,
    attempt: Attempt,
  ): Promise<GeneratedImage> {
    return this.onLease(lease, signal, async () => {
      const slot = await this.uploadSlots.take(lease.client, signal);
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
      ...this.promptOptions,
      ...(this.log && { log: this.log }),
      signal,
      // A farm: a job whose server drops goes to another that is up at once.
      elsewhere: () => this.pool.anyUp(lease.client),
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
    const { outputPath, encoding, width, height } = job.output;
    const written = await writeOutput(
      lease.client,
      image,
      outputPath,
      encoding,
      { width, height },
      signal,
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
      { subfolder: this.uploadSubfolder, overwrite: true, type: 'temp' },
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

/** A reporter that passes on only rising whole percents, 0..100. */
function rising(progress: ProgressReporter): (percent: number) => void {
  let last = -1;
  return (percent) => {
    const value = Math.max(0, Math.min(100, Math.floor(percent)));
    if (value <= last) return;
    last = value;
    progress(value);
  };
}
