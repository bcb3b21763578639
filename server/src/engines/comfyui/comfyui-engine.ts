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
 * names the node; a server that does not answer or drops the websocket is left out for a while
 * (pool.ts) and the job fails, for the job runner to retry on another server.
 */
import { randomUUID } from 'node:crypto';
import type {
  Engine,
  EngineHealth,
  GeneratedImage,
  GenerateParams,
  ProgressReporter,
  UpscaleParams,
} from '../engine.js';
import type { ComfyImageRef, ComfyWorkflow, HistoryEntry } from './api-types.js';
import { ComfyClient, type ComfyClientOptions } from './client.js';
import { ComfyExecutionError, ComfyServerError } from './errors.js';
import { prepareImage, writeOutput, type PreparedImage } from './output.js';
import { ServerPool, type Lease, type PoolOptions } from './pool.js';
import { runPrompt } from './run-prompt.js';
import {
  fillHd,
  fillPreview,
  HD_NODES,
  loadWorkflowTemplates,
  PREVIEW_NODES,
  type WorkflowTemplates,
} from './workflows.js';

export interface ComfyUIEngineOptions {
  /** COMFYUI_URLS: base URLs of the ComfyUI servers. */
  urls: string[];
  /** COMFYUI_WORKFLOWS_DIR: the operator's preview.json / hd.json. */
  workflowsDir?: string;
  client?: ComfyClientOptions;
  pool?: PoolOptions;
  /** The subfolder of ComfyUI's input folder uploads go to. */
  uploadSubfolder?: string;
}

/** Where the fraction of the prompt executed lands in the job's percent. */
const EXECUTION_FROM = 5;
const EXECUTION_TO = 95;

/** One run of a workflow template on an input image. */
interface WorkflowJob {
  inputPath: string;
  /** Cut the input to its opaque region first (see prepareImage). */
  mask: boolean;
  /** The template filled in with the uploaded input's LoadImage value. */
  fill: (uploaded: string, input: PreparedImage) => ComfyWorkflow;
  /** The node whose saved image is the result. */
  outputNode: string;
  /** Where the result goes, at what size. */
  output: { outputPath: string; width: number; height: number };
}

export class ComfyUIEngine implements Engine {
  readonly name = 'comfyui';
  /** The templates in use, checked when the engine is made (a bad one stops the server start). */
  readonly templates: WorkflowTemplates;
  private readonly pool: ServerPool;
  private readonly uploadSubfolder: string;

  constructor(options: ComfyUIEngineOptions) {
    this.templates = loadWorkflowTemplates(options.workflowsDir);
    this.pool = new ServerPool(
      options.urls.map((url) => new ComfyClient(url, options.client)),
      options.pool,
    );
    this.uploadSubfolder = options.uploadSubfolder ?? 'tessera';
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
            referenceImage: uploaded,
            positivePrompt: params.positivePrompt,
            negativePrompt: params.negativePrompt,
            width: params.width,
            height: params.height,
            seed: params.seed,
            cfg: params.imaginationWeight,
            denoise: params.similarity,
            adherence: params.promptAdherence,
            style: params.style,
            seamless: params.seamless,
          }),
        output: params,
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
      },
      progress,
      signal,
    );
  }

  health(): Promise<EngineHealth> {
    return this.pool.health();
  }

  /** Stops the timers that check failed servers again. */
  close(): void {
    this.pool.close();
  }

  /**
   * The steps both jobs take: prepare the input image, upload it to the server the pool picks,
   * fill the template with its name, run the prompt and write the output node's image.
   */
  private async runWorkflow(
    job: WorkflowJob,
    progress: ProgressReporter,
    signal: AbortSignal,
  ): Promise<GeneratedImage> {
    const report = rising(progress);
    report(0);
    const input = await prepareImage(job.inputPath, job.mask);
    return this.onServer(signal, async (lease) => {
      const uploaded = await this.upload(lease.client, input.png, signal);
      report(2);
      const prompt = job.fill(uploaded, input);
      const image = await this.execute(lease, prompt, job.outputNode, report, signal);
      const { outputPath, width, height } = job.output;
      const written = await writeOutput(lease.client, image, outputPath, { width, height }, signal);
      report(100);
      return written;
    });
  }

  /** Runs `work` on the server the pool picks; a server failure leaves that server out. */
  private async onServer<T>(signal: AbortSignal, work: (lease: Lease) => Promise<T>): Promise<T> {
    const lease = await this.pool.acquire(signal);
    try {
      return await work(lease);
    } catch (error) {
      if (error instanceof ComfyServerError && !signal.aborted) lease.fail(error);
      throw error;
    } finally {
      lease.release();
    }
  }

  /** POST /upload/image under a fresh name; the LoadImage value ("subfolder/name"). */
  private async upload(client: ComfyClient, png: Buffer, signal: AbortSignal): Promise<string> {
    const uploaded = await client.uploadImage(
      png,
      `${randomUUID()}.png`,
      { subfolder: this.uploadSubfolder, overwrite: true },
      signal,
    );
    return uploaded.subfolder ? `${uploaded.subfolder}/${uploaded.name}` : uploaded.name;
  }

  /** Queues and follows the prompt; the image the output node saved. */
  private async execute(
    lease: Lease,
    prompt: ComfyWorkflow,
    outputNode: string,
    report: (percent: number) => void,
    signal: AbortSignal,
  ): Promise<ComfyImageRef> {
    const result = await runPrompt(lease.client, prompt, {
      signal,
      onQueued: (id) => {
        lease.queued(id);
        report(EXECUTION_FROM);
      },
      onProgress: (fraction) =>
        report(EXECUTION_FROM + Math.floor(fraction * (EXECUTION_TO - EXECUTION_FROM))),
    });
    report(EXECUTION_TO);
    const image = outputImage(result.history, outputNode);
    if (!image) {
      throw new ComfyExecutionError(
        lease.client.displayUrl,
        `ComfyUI finished prompt ${result.promptId} without an image from node ${outputNode}`,
      );
    }
    // The history has served its purpose; the files stay in ComfyUI's output folder.
    void lease.client.deleteHistory([result.promptId]).catch(() => undefined);
    return image;
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
