/**
 * The builtin engine (DESIGN §5): preview textures by image quilting from the reference, on the
 * CPU, one worker thread per job so that the event loop stays free (docs/engines.md). The
 * worker decodes, synthesizes and encodes; this side writes the PNG to a partial name beside
 * `outputPath` and renames it into place. On abort the worker is terminated, any write in
 * progress is awaited and both names are removed before the promise rejects, so an aborted job
 * leaves no file. The prompts are not read.
 */
import { randomUUID } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { previewSettingsIn } from '@tessera/contract';
import type {
  Engine,
  GeneratedImage,
  GenerateParams,
  ProgressReporter,
  UpscaleParams,
} from '../engine.js';
import { startWorker } from '../../runtime/worker-url.js';
import type { WorkerJob, WorkerMessage } from './protocol.js';
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

  constructor(private readonly options: BuiltinEngineOptions = { upscaler: 'esrgan' }) {}

  upscale(
    params: UpscaleParams,
    progress: ProgressReporter,
    signal: AbortSignal,
  ): Promise<GeneratedImage> {
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
    const job: WorkerJob = {
      referencePath: params.referencePath,
      settings: previewSettingsIn(params),
    };
    const partialPath = `${params.outputPath}.${randomUUID()}.partial`;

    return new Promise<GeneratedImage>((resolve, reject) => {
      const worker = startWorker(import.meta.url, 'worker', { workerData: job });
      let settled = false;
      let lastPercent = -1;
      let encoded = false;
      let writing: Promise<unknown> = Promise.resolve();

      const report = (percent: number) => {
        if (settled || percent <= lastPercent) return;
        lastPercent = percent;
        progress(percent);
      };
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        void worker
          .terminate()
          .then(() => writing.catch(() => undefined))
          .then(() =>
            Promise.all([rm(partialPath, { force: true }), rm(params.outputPath, { force: true })]),
          )
          .then(
            () => reject(error),
            () => reject(error),
          );
      };
      const onAbort = () => fail(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });

      worker.on('message', (message: WorkerMessage) => {
        if (settled) return;
        switch (message.type) {
          case 'progress':
            report(message.percent);
            break;
          case 'done': {
            const { width, height, png } = message;
            encoded = true;
            writing = writeFile(partialPath, png)
              .then(() => {
                if (!settled) return rename(partialPath, params.outputPath);
              })
              .then(
                () => {
                  if (settled) return;
                  report(100);
                  settled = true;
                  signal.removeEventListener('abort', onAbort);
                  resolve({ width, height });
                },
                (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
              );
            break;
          }
          case 'failed':
            fail(new Error(`Builtin engine: ${message.message}`));
            break;
        }
      });
      worker.on('error', (error) => fail(error));
      worker.on('exit', (code) => {
        if (code !== 0 || !encoded) {
          fail(
            new Error(`Builtin engine: the worker stopped (exit code ${code}) before finishing`),
          );
        }
      });
    });
  }
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException('The generation was aborted', 'AbortError');
}
