/**
 * The builtin engine (DESIGN §5): preview textures by image quilting from the reference, on the
 * CPU, one worker thread per job so that the event loop stays free (docs/engines.md). The
 * worker decodes, synthesizes and encodes; this side writes the PNG to a partial name beside
 * `outputPath` and renames it into place. A series (`seriesPaths`, issue 25) is made by the same
 * worker, every face written to its partial name as it comes, and all renamed into place once
 * all are written. On abort the worker is terminated, any write in progress is awaited and every
 * name (partial and final, of every face) is removed before the promise rejects, so an aborted
 * job leaves no file. The prompts are read for the words of the vocabulary (issue 27,
 * contract/src/prompt-vocabulary.ts): colours, scale and finish act on the reference in the
 * worker (prompts/apply.ts), and the terms understood are returned as the images' metadata.
 */
import { randomUUID } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import {
  PROMPT_TERMS_METADATA_KEY,
  previewSettingsIn,
  SYNTHESIS_USED_METADATA_KEY,
  understandPrompts,
  type PreviewSettings,
  type SynthesisUsed,
} from '@tessera/contract';
import type {
  Engine,
  GeneratedImage,
  GenerateParams,
  ProgressReporter,
  UpscaledImage,
  UpscaleParams,
} from '../engine.js';
import type { WorkerJob, WorkerMessage } from './protocol.js';
import { SpareWorker } from './spare-worker.js';
import { upscaleImage } from './upscale/index.js';
import type { EsrganRuntime } from './upscale/plan.js';

export interface BuiltinEngineOptions {
  /**
   * 'esrgan': the neural pass (ESRGAN-slim) then Lanczos; 'esrgan-medium': the same with the
   * larger ESRGAN-medium network (finer detail, about 2.6 times the network's time); 'lanczos':
   * Lanczos alone (fast, for trials and tests).
   */
  upscaler: 'esrgan' | 'esrgan-medium' | 'lanczos';
  /** What runs ESRGAN: 'onnx' (onnxruntime, the default) or 'tfjs' (tfjs-wasm, the fallback). */
  runtime?: EsrganRuntime;
}

export class BuiltinEngine implements Engine {
  readonly name = 'builtin';
  /** Each job's thread, started ahead of it (spare-worker.ts). */
  private readonly workers = new SpareWorker(import.meta.url, 'worker');

  constructor(private readonly options: BuiltinEngineOptions = { upscaler: 'esrgan' }) {}

  close(): void {
    this.workers.close();
  }

  upscale(
    params: UpscaleParams,
    progress: ProgressReporter,
    signal: AbortSignal,
  ): Promise<UpscaledImage> {
    const { upscaler, runtime } = this.options;
    const variant = upscaler === 'esrgan-medium' ? 'medium' : 'slim';
    const neural = upscaler !== 'lanczos';
    return upscaleImage(params, { neural, runtime, variant }, progress, signal);
  }

  generate(
    params: GenerateParams,
    progress: ProgressReporter,
    signal: AbortSignal,
  ): Promise<GeneratedImage> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    // A series writes one file per face, face 1 first; a single image is a series of one.
    const paths = params.seriesPaths?.length ? [...params.seriesPaths] : [params.outputPath];
    const job: WorkerJob = {
      referencePath: params.referencePath,
      settings: previewSettingsIn(params),
      faces: paths.length,
    };
    const partials = paths.map((target) => `${target}.${randomUUID()}.partial`);

    return new Promise<GeneratedImage>((resolve, reject) => {
      const worker = this.workers.take();
      worker.postMessage(job);
      let settled = false;
      let lastPercent = -1;
      let encoded = 0;
      let size: GeneratedImage = { width: 0, height: 0 };
      let used: SynthesisUsed = 'quilting';
      const writes: Promise<unknown>[] = [];

      const report = (percent: number) => {
        if (settled || percent <= lastPercent) return;
        lastPercent = percent;
        progress(percent);
      };
      const removeAll = () =>
        Promise.all([...partials, ...paths].map((file) => rm(file, { force: true })));
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        void worker
          .terminate()
          .then(() => Promise.all(writes.map((write) => write.catch(() => undefined))))
          .then(removeAll)
          .then(
            () => reject(error),
            () => reject(error),
          );
      };
      const onAbort = () => fail(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });

      // Every face is written to its partial name; once all are, they are renamed into place.
      const finish = () =>
        Promise.all(writes)
          .then(async () => {
            for (const [k, target] of paths.entries()) {
              const partial = partials[k];
              if (settled || partial === undefined) return;
              await rename(partial, target);
            }
          })
          .then(
            () => {
              if (settled) return;
              report(100);
              settled = true;
              signal.removeEventListener('abort', onAbort);
              resolve({ ...size, metadata: imageMetadata(job.settings, used) });
            },
            (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
          );

      worker.on('message', (message: WorkerMessage) => {
        if (settled) return;
        switch (message.type) {
          case 'progress':
            report(message.percent);
            break;
          case 'done': {
            const { face, width, height, png } = message;
            const partial = partials[face - 1];
            if (partial === undefined) {
              fail(new Error(`Builtin engine: the worker sent face ${face} of ${paths.length}`));
              break;
            }
            encoded++;
            size = { width, height };
            used = message.synthesis;
            writes.push(writeFile(partial, png));
            if (encoded === paths.length) writes.push(finish());
            break;
          }
          case 'failed':
            fail(new Error(`Builtin engine: ${message.message}`));
            break;
        }
      });
      worker.on('error', (error) => fail(error));
      worker.on('exit', (code) => {
        if (code !== 0 || encoded < paths.length) {
          fail(
            new Error(`Builtin engine: the worker stopped (exit code ${code}) before finishing`),
          );
        }
      });
    });
  }
}

/**
 * What the engine adds to each image's metadata (services/generation.ts merges it in): the
 * prompt terms it understood, which Image Details shows and a Remix, sending the same prompts,
 * records again; and the synthesis it used (quilting or blending; issue 27).
 */
export function imageMetadata(
  settings: PreviewSettings,
  used: SynthesisUsed,
): Record<string, unknown> {
  return {
    [PROMPT_TERMS_METADATA_KEY]: understandPrompts(
      settings.positivePrompt,
      settings.negativePrompt,
    ),
    [SYNTHESIS_USED_METADATA_KEY]: used,
  };
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException('The generation was aborted', 'AbortError');
}
