import { describe, expect, it } from 'vitest';
import { SpareWorker } from './spare-worker.js';
import type { WorkerMessage } from './protocol.js';

describe('SpareWorker', () => {
  it('gives a started worker per take, a new one each time, that runs the job it is sent', async () => {
    const workers = new SpareWorker(import.meta.url, 'worker');
    const first = workers.take();
    const second = workers.take();
    expect(second).not.toBe(first);
    // The worker waits for its job: one with a missing reference fails with a message.
    const failed = new Promise<string>((resolve) => {
      second.on('message', (message: WorkerMessage) => {
        if (message.type === 'failed') resolve(message.message);
      });
    });
    second.postMessage({ referencePath: '/nonexistent/reference.png', settings: {}, faces: 1 });
    expect(await failed).not.toBe('');
    workers.close();
    await Promise.all([first.terminate(), second.terminate()]);
  });
});
