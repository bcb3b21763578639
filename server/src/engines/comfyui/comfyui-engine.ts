/**
 * The ComfyUI engine (DESIGN §5, docs/comfyui.md): fills the workflow templates, runs them on the
 * least busy of the configured ComfyUI servers and writes the result to the job's outputPath
 * exactly as the builtin engine does; the generation and HD services then store the files,
 * thumbnails and metadata.
 *
 * A try on one server (upload, queue or pick up, follow, download) is workflow-attempt.ts's; this
 * file tries again through outages.
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
 * Series (`seriesPaths`, issue 25): face 1 as a preview, faces 2..N by inpainting inside face 1's
 * edge band (series.ts), one prompt after another, progress spread over the faces.
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
import type {
  Engine,
  EngineHealth,
  GeneratedImage,
  GenerateParams,
  ProgressReporter,
  UpscaledImage,
  UpscaleParams,
} from '../engine.js';
import { readImageSize } from '../../imaging/probe.js';
import { templateNeeds } from './capabilities.js';
import { ComfyClient, type ComfyClientOptions } from './client.js';
import { hdDetailWidth } from './detail-width.js';
import { ComfyPromptLostError, ComfyServerLeftError } from './errors.js';
import { isOutage, OutageWindow } from './outage.js';
import { prepareImage, type PreparedImage } from './output.js';
import { ServerPool, type PoolChange, type PoolOptions } from './pool.js';
import type { PromptLog, RunPromptOptions } from './run-prompt.js';
import { rising } from './progress.js';
import { generateSeries, previewJob, type RunJob } from './series.js';
import { fillHd, HD_NODES, loadWorkflowTemplates, type WorkflowTemplates } from './workflows.js';
import { UploadSlots } from './upload-slots.js';
import { WorkflowAttempts, type Attempt, type WorkflowJob } from './workflow-attempt.js';

export interface ComfyUIEngineOptions {
  /** COMFYUI_URLS: base URLs of the ComfyUI servers. */
  urls: string[];
  /** COMFYUI_WORKFLOWS_DIR: the operator's preview.json / hd.json / series.json. */
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

export class ComfyUIEngine implements Engine {
  readonly name = 'comfyui';
  /** The templates in use, checked when the engine is made (a bad one stops the server start). */
  readonly templates: WorkflowTemplates;
  private readonly pool: ServerPool;
  private readonly attempts: WorkflowAttempts;
  private readonly outageWindowMs: number;
  private readonly log: PromptLog | undefined;

  constructor(options: ComfyUIEngineOptions) {
    this.templates = loadWorkflowTemplates(options.workflowsDir);
    this.pool = new ServerPool(
      options.urls.map((url) => new ComfyClient(url, options.client)),
      options.pool,
      templateNeeds({
        preview: this.templates.preview.workflow,
        hd: this.templates.hd.workflow,
        series: this.templates.series.workflow,
      }),
    );
    const uploadSubfolder = options.uploadSubfolder ?? 'tessera';
    this.attempts = new WorkflowAttempts({
      pool: this.pool,
      uploadSubfolder,
      uploadSlots: new UploadSlots(uploadSubfolder, options.instance),
      prompt: options.prompt,
      log: options.log,
    });
    this.outageWindowMs = options.outageWindowMs ?? DEFAULT_OUTAGE_WINDOW_MS;
    this.log = options.log;
  }

  generate(
    params: GenerateParams,
    progress: ProgressReporter,
    signal: AbortSignal,
  ): Promise<GeneratedImage> {
    const paths = params.seriesPaths;
    if (paths && paths.length > 1) {
      const run: RunJob = (job, report) => this.runWorkflow(job, report, signal);
      return generateSeries(this.templates, params, paths, run, progress);
    }
    return this.runWorkflow(previewJob(this.templates, params), progress, signal);
  }

  async upscale(
    params: UpscaleParams,
    progress: ProgressReporter,
    signal: AbortSignal,
  ): Promise<UpscaledImage> {
    const hdInputs = (sourceImage: string, source: { width: number; height: number }) => ({
      sourceImage,
      sourceWidth: source.width,
      sourceHeight: source.height,
      ...params.factors,
      seed: params.seed,
      seamless: params.seamless,
    });
    let ldSize: { width: number; height: number } | undefined;
    const image = await this.runWorkflow(
      {
        inputPath: params.sourcePath,
        mask: false,
        outputNode: HD_NODES.output.id,
        fill: (uploaded, source) => {
          ldSize = source;
          return fillHd(this.templates.hd, hdInputs(uploaded, source));
        },
        output: params,
        remote: params.remote,
      },
      progress,
      signal,
    );
    // A prompt picked up after a restart was filled by the earlier run: the LD file tells its size.
    if (!ldSize) {
      const { width, height } = await readImageSize(params.sourcePath);
      if (width !== undefined && height !== undefined) ldSize = { width, height };
    }
    const detail =
      ldSize && hdDetailWidth(fillHd(this.templates.hd, hdInputs('', ldSize)), ldSize.width);
    return {
      ...image,
      ...(detail !== undefined && { detailWidth: Math.min(detail, image.width) }),
    };
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
          const resumed = await this.attempts.resume(previous, job, report, signal);
          if (resumed) return resumed;
        }
        input ??= await prepareImage(job.inputPath, job.mask);
        const lease = await this.pool.acquire(signal);
        return await this.attempts.submit(lease, input, job, report, signal, attempt);
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
}
