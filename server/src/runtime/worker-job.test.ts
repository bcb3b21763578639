import { describe, expect, it } from 'vitest';
import { runWorkerJob } from './worker-job.js';

const names = { job: 'Test job', worker: 'test' };
// prng.ts only exports functions: as a worker it loads and exits without a word.
const callerUrl = new URL('../engines/builtin/builtin-engine.ts', import.meta.url).href;

describe('runWorkerJob', () => {
  it('tells a worker that ends without an answer', async () => {
    const signal = new AbortController().signal;
    await expect(
      runWorkerJob(callerUrl, 'prng', {}, { onProgress: () => undefined, signal, names }),
    ).rejects.toThrow('The test worker stopped (exit code 0)');
  });

  it('starts no worker for a job stopped before it began, and rejects with the reason', async () => {
    const stopped = new AbortController();
    stopped.abort(new Error('the server is stopping'));
    await expect(
      runWorkerJob(
        callerUrl,
        'prng',
        {},
        { onProgress: () => undefined, signal: stopped.signal, names },
      ),
    ).rejects.toThrow('the server is stopping');
  });
});
