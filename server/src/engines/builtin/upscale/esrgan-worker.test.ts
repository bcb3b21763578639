import { errorText } from '@tessera/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { bricks } from '../test-references.js';
import { runNetwork, type RgbImage } from './network.js';

/**
 * The runtimes a worker falls back through when a package is missing (issue 23, part 5):
 * onnxruntime's native library absent (a platform its npm package has no binary for) and tfjs,
 * a development dependency, absent from a production install. TESSERA_FAULT_MISSING_MODULE makes
 * the worker's import fail as Node's does for a package that is not installed.
 */

const SLOW = 120_000;

function rgb(image: { data: Uint8Array; width: number; height: number }): RgbImage {
  const data = new Uint8Array(image.width * image.height * 3);
  for (let i = 0; i < image.width * image.height; i++) {
    for (let c = 0; c < 3; c++) data[i * 3 + c] = image.data[i * 4 + c] ?? 0;
  }
  return { data, width: image.width, height: image.height };
}

/** The next process warning of the upscaler's type. */
function nextUpscalerWarning(): Promise<Error> {
  return new Promise((resolve) => {
    const listener = (warning: Error) => {
      if (warning.name !== 'TesseraUpscalerWarning') return;
      process.off('warning', listener);
      resolve(warning);
    };
    process.on('warning', listener);
  });
}

const upscale = (signal = new AbortController().signal) =>
  runNetwork(
    rgb(bricks(40, 32, 4)),
    { scale: 2, padding: 'wrap', workers: 1, runtime: 'onnx' },
    () => undefined,
    signal,
  );

afterEach(() => {
  delete process.env.TESSERA_FAULT_MISSING_MODULE;
});

describe('ESRGAN worker without its runtimes', () => {
  it(
    'runs tfjs when onnxruntime does not load, and says so in the log',
    async () => {
      process.env.TESSERA_FAULT_MISSING_MODULE = 'onnxruntime-node';
      const warning = nextUpscalerWarning();
      const result = await upscale();
      expect([result.width, result.height]).toEqual([80, 64]);
      expect((await warning).message).toMatch(/onnxruntime does not load here .*running tfjs/);
    },
    SLOW,
  );

  it(
    'fails with the contract text when neither loads; the log says why and what to do',
    async () => {
      process.env.TESSERA_FAULT_MISSING_MODULE = 'onnxruntime-node,@tensorflow/tfjs';
      const warning = nextUpscalerWarning();
      const error = await upscale().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(Error);
      // The code lets services/readable-error.ts keep the text; the text is the user's.
      expect((error as { code?: unknown }).code).toBe('HD_UPSCALER_UNAVAILABLE');
      expect((error as Error).message).toBe(errorText('HD_UPSCALER_UNAVAILABLE'));
      const logged = (await warning).message;
      expect(logged).toContain("Cannot find package 'onnxruntime-node'");
      expect(logged).toContain("Cannot find package '@tensorflow/tfjs'");
      expect(logged).toContain('BUILTIN_UPSCALER=lanczos');
    },
    SLOW,
  );
});
