import { describe, expect, it } from 'vitest';
import { startWorker, workerEntry } from './worker-url.js';

describe('workerEntry', () => {
  it('is the .js file beside a built module', () => {
    expect(
      workerEntry('file:///app/server/dist/engines/builtin/builtin-engine.js', 'worker'),
    ).toEqual({
      url: new URL('file:///app/server/dist/engines/builtin/worker.js'),
      typescript: false,
    });
  });

  it('is the .ts file beside a TypeScript source', () => {
    expect(
      workerEntry('file:///app/server/src/engines/builtin/builtin-engine.ts', 'worker'),
    ).toEqual({
      url: new URL('file:///app/server/src/engines/builtin/worker.ts'),
      typescript: true,
    });
  });
});

describe('startWorker', () => {
  it('runs a TypeScript worker from the sources (through tsx)', async () => {
    const worker = startWorker(
      new URL('../engines/builtin/builtin-engine.ts', import.meta.url).href,
      'prng',
    );
    // prng.ts only exports functions: the worker loads it and exits cleanly.
    const code = await new Promise<number>((resolve, reject) => {
      worker.on('exit', resolve);
      worker.on('error', reject);
    });
    expect(code).toBe(0);
  });
});
