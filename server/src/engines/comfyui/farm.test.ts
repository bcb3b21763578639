// A ComfyUI farm through its servers' outages and failures (issue 23, part 12), against stand-ins
// that are killed and started again on the same port for real: a restarted ComfyUI has lost its
// queue, its history and its temp folder, as the real one has. The waits are for events (the
// stand-in's, the pool's state changes, the log), never for a fixed time.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComfyStandIn } from '../../testing/comfyui-stand-in/index.js';
import { comfyEngines, never } from '../../testing/comfyui-engines.js';
import { bricksPng } from '../../testing/http.js';
import { ComfyClient } from './client.js';
import type { ComfyUIEngine, ComfyUIEngineOptions } from './comfyui-engine.js';
import { POOL_DEFAULTS } from './pool-member.js';
import { NoServerAvailableError, ServerPool, type PoolChange } from './pool.js';

const comfyui = comfyEngines('tessera-comfy-farm-', () => bricksPng(128, 128));
const pools: ServerPool[] = [];

afterEach(() => {
  for (const pool of pools.splice(0)) pool.close();
});

/** A stand-in with short steps. */
function standIn(options: Parameters<typeof comfyui.standIn>[0] = {}) {
  return comfyui.standIn({ stepDelayMs: 5, ...options });
}

/** What the engine logged, and a wait for a line. */
function recordingLog() {
  const lines: { level: 'info' | 'warn'; message: string; details: object }[] = [];
  const waiting: { message: string; resolve: () => void }[] = [];
  const add = (level: 'info' | 'warn') => (details: object, message: string) => {
    lines.push({ level, message, details });
    for (const waiter of waiting.filter((w) => message.includes(w.message))) waiter.resolve();
  };
  return {
    lines,
    messages: () => lines.map((line) => line.message),
    info: add('info'),
    warn: add('warn'),
    /** Resolves at the first line containing `message` (at once if one was logged already). */
    next(message: string): Promise<void> {
      if (lines.some((line) => line.message.includes(message))) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ message, resolve }));
    },
  };
}

/** An engine quick to give up on a socket (the outage window then keeps the job). */
function engine(urls: string[], options: Partial<ComfyUIEngineOptions> = {}) {
  return comfyui.engine(urls, {
    prompt: { reconnectMs: 100, pollMs: 100 },
    pool: { retryAfterMs: 20, maxRetryAfterMs: 100 },
    ...options,
  });
}

/** Resolves at the next state change of `url` to `state`. */
function stateOf(made: ComfyUIEngine, url: string, state: PoolChange['state']): Promise<void> {
  return new Promise((resolve) => {
    const stop = made.onServerChange((change) => {
      if (change.url !== url || change.state !== state) return;
      stop();
      resolve();
    });
  });
}

/** Resolves when the stand-in starts running `node` of a prompt. */
function running(comfy: ComfyStandIn, node: string): Promise<void> {
  return new Promise((resolve) => {
    const on = (event: { node: string }) => {
      if (event.node !== node) return;
      comfy.events.off('executing', on);
      resolve();
    };
    comfy.events.on('executing', on);
  });
}

const previewParams = () => comfyui.previewParams();

describe('a server down longer than its websocket is waited for (part 12a)', () => {
  it('keeps the job: the restarted server, which lost the prompt, gets it again and the job finishes', async () => {
    const comfy = await standIn();
    const port = comfy.port;
    comfy.holdAt('3');
    const log = recordingLog();
    const made = engine([comfy.url], { outageWindowMs: 60_000, log });
    const percents: number[] = [];
    const params = previewParams();
    const sampling = running(comfy, '3');
    const job = made.generate(params, (p) => percents.push(p), never());
    await sampling;
    await comfy.crash();
    // The socket is given up for lost; without the window the job failed here.
    await log.next('ComfyUI outage: the job waits');
    const back = await standIn({ port });
    await job;

    expect(fs.existsSync(params.outputPath)).toBe(true);
    expect(comfy.prompts).toHaveLength(1);
    expect(back.prompts).toHaveLength(1);
    // Uploaded again: the restarted ComfyUI emptied its temp folder.
    expect(back.uploads).toHaveLength(1);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(100);
    expect((await made.health()).servers?.[0]?.state).toBe('up');
    // Each websocket drop is told (part 12e).
    expect(log.messages()).toEqual(
      expect.arrayContaining([
        'ComfyUI websocket dropped, reopening',
        'ComfyUI websocket could not be reopened',
      ]),
    );
  });

  it('on a farm, moves the job to a server that is up instead of waiting', async () => {
    const first = await standIn();
    const second = await standIn();
    first.holdAt('3');
    const made = engine([first.url, second.url], { outageWindowMs: 60_000 });
    const params = previewParams();
    const sampling = running(first, '3');
    const job = made.generate(params, () => undefined, never());
    await sampling;
    await first.crash();
    await job;

    expect(fs.existsSync(params.outputPath)).toBe(true);
    expect(first.prompts).toHaveLength(1);
    expect(second.prompts).toHaveLength(1);
    const health = await made.health();
    expect(health.servers?.map((s) => s.state)).toEqual(['down', 'up']);
  });

  it('on a farm, a job whose server is killed moves to the other at once, not after reopening its socket', async () => {
    const first = await standIn();
    const second = await standIn();
    first.holdAt('3');
    const log = recordingLog();
    // A lone server's socket would be tried for 10 min, far past the test's time limit.
    const made = engine([first.url, second.url], {
      outageWindowMs: 60_000,
      prompt: { reconnectMs: 600_000, pollMs: 100 },
      log,
    });
    const percents: number[] = [];
    const params = previewParams();
    const sampling = running(first, '3');
    const job = made.generate(params, (p) => percents.push(p), never());
    await sampling;
    await first.crash();
    await job;

    expect(fs.existsSync(params.outputPath)).toBe(true);
    // Queued once on each: the killed one, then the other; the input uploaded there anew.
    expect(first.prompts).toHaveLength(1);
    expect(second.prompts).toHaveLength(1);
    expect(second.uploads).toHaveLength(1);
    // One try at the killed server's socket, then the move.
    expect(log.lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'ComfyUI websocket could not be reopened: the job moves to another server',
        details: expect.objectContaining({
          server: first.url,
          promptId: first.prompts[0]?.prompt_id,
          attempts: 1,
        }),
      }),
    );
    expect(log.messages()).not.toContain('ComfyUI websocket could not be reopened');
    // The job's status only rose, to its end.
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(100);
    const health = await made.health();
    expect(health.servers?.map((s) => s.state)).toEqual(['down', 'up']);
  });

  it('with one server, a killed server’s socket is tried until it is back, and the lost prompt queued again there', async () => {
    const comfy = await standIn();
    const port = comfy.port;
    comfy.holdAt('3');
    const log = recordingLog();
    const made = engine([comfy.url], {
      outageWindowMs: 60_000,
      prompt: { reconnectMs: 600_000, pollMs: 100 },
      log,
    });
    const params = previewParams();
    const sampling = running(comfy, '3');
    const job = made.generate(params, () => undefined, never());
    await sampling;
    await comfy.crash();
    await log.next('ComfyUI websocket dropped, reopening');
    const back = await standIn({ port });
    await job;

    expect(fs.existsSync(params.outputPath)).toBe(true);
    expect(comfy.prompts).toHaveLength(1);
    expect(back.prompts).toHaveLength(1);
    // Not given up for another server (there is none): the server back told the prompt was lost.
    expect(log.messages().filter((m) => m.startsWith('ComfyUI websocket could not'))).toEqual([]);
  });

  it('a job that arrives while the only server is down waits for it instead of failing', async () => {
    const comfy = await standIn();
    const port = comfy.port;
    await comfy.crash();
    const log = recordingLog();
    const made = engine([comfy.url], { outageWindowMs: 60_000, log });
    const params = previewParams();
    const job = made.generate(params, () => undefined, never());
    await log.next('ComfyUI outage: the job waits');
    const back = await standIn({ port });
    await job;
    expect(fs.existsSync(params.outputPath)).toBe(true);
    expect(back.prompts).toHaveLength(1);
  });

  it('past the window the job fails with the server’s error', async () => {
    const comfy = await standIn();
    const url = comfy.url;
    await comfy.crash();
    const made = engine([url], { outageWindowMs: 200 });
    const failure = await made.generate(previewParams(), () => undefined, never()).catch((e) => e);
    expect(failure).toBeInstanceOf(NoServerAvailableError);
    expect((failure as Error).message).toContain(`No ComfyUI server answers: ${url}`);
  });
});

describe('a server whose prompts fail while running (part 12b)', () => {
  it('is failing in health with the last error and gets no jobs while another server works', async () => {
    // A broken model file: every prompt fails at the checkpoint loader, while /prompt answers.
    const broken = await standIn({ failAtNode: '4' });
    const good = await standIn();
    const made = engine([broken.url, good.url], {
      pool: { failingAfter: 2, failingPauseMs: 600_000 },
    });
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      await made
        .generate(previewParams(), () => undefined, never())
        .then(
          () => outcomes.push('finished'),
          () => outcomes.push('failed'),
        );
    }
    // The two take turns until two failures in a row take the broken one out.
    expect(outcomes).toEqual(['failed', 'finished', 'failed', 'finished', 'finished', 'finished']);
    expect(broken.prompts).toHaveLength(2);
    const health = await made.health();
    expect(health.ok).toBe(true);
    expect(health.servers?.[0]).toMatchObject({
      url: broken.url,
      state: 'failing',
      lastError:
        'ComfyUI failed at node 4 (CheckpointLoaderSimple): RuntimeError: stand-in failure at node 4',
    });
    expect(health.servers?.[0]?.nextCheckAt).not.toBeNull();
  });

  it('the only server failing: a job fails at once, readably, without sending a prompt', async () => {
    const broken = await standIn({ failAtNode: '4' });
    const made = engine([broken.url], { pool: { failingAfter: 1, failingPauseMs: 600_000 } });
    await expect(made.generate(previewParams(), () => undefined, never())).rejects.toThrow(
      /failed at node 4/,
    );
    await expect(made.generate(previewParams(), () => undefined, never())).rejects.toThrow(
      `No ComfyUI server can take the job: ${broken.url} (failing: ComfyUI failed at node 4`,
    );
    expect(broken.prompts).toHaveLength(1);
    expect((await made.health()).ok).toBe(false);
  });

  it('after its pause it gets a job on trial; one that succeeds there ends the failing state', async () => {
    const broken = await standIn({ failAtNode: '4' });
    const port = broken.port;
    const made = engine([broken.url], { pool: { failingAfter: 1, failingPauseMs: 50 } });
    const failing = stateOf(made, broken.url, 'failing');
    const upAgain = stateOf(made, broken.url, 'up');
    await expect(made.generate(previewParams(), () => undefined, never())).rejects.toThrow(
      /failed at node 4/,
    );
    await failing;
    // The operator replaces the model file and restarts ComfyUI.
    await broken.crash();
    const fixed = await standIn({ port });
    await upAgain;
    const params = previewParams();
    await made.generate(params, () => undefined, never());
    expect(fs.existsSync(params.outputPath)).toBe(true);
    expect(fixed.prompts).toHaveLength(1);
    expect((await made.health()).servers?.[0]).toMatchObject({ state: 'up' });
  });
});

describe('a server that comes back (part 12c)', () => {
  it('is asked again after 1 s, then a doubling pause up to 15 s, by default', async () => {
    const comfy = await standIn();
    const url = comfy.url;
    await comfy.crash();
    const pool = new ServerPool([new ComfyClient(url)]);
    pools.push(pool);
    const changes: PoolChange[] = [];
    pool.onChange((change) => changes.push(change));
    await expect(pool.acquire(never())).rejects.toThrow(NoServerAvailableError);
    expect(changes).toEqual([expect.objectContaining({ state: 'down', pause: 1_000 })]);
    expect(POOL_DEFAULTS.maxRetryAfterMs).toBe(15_000);
  });

  it('is probed on its own with a growing pause, and is up as soon as it answers, no job needed', async () => {
    const comfy = await standIn();
    const { url, port } = comfy;
    await comfy.crash();
    const pool = new ServerPool([new ComfyClient(url)], { retryAfterMs: 10, maxRetryAfterMs: 40 });
    pools.push(pool);
    const pauses: number[] = [];
    const fourDown = new Promise<void>((resolve) =>
      pool.onChange((change) => {
        if (change.state === 'down') pauses.push(change.pause ?? -1);
        if (pauses.length === 4) resolve();
      }),
    );
    await pool.acquire(never()).catch(() => undefined);
    await fourDown;
    expect(pauses).toEqual([10, 20, 40, 40]);

    const up = new Promise<void>((resolve) =>
      pool.onChange((change) => change.state === 'up' && resolve()),
    );
    await standIn({ port });
    await up;
    expect((await pool.health()).servers?.[0]).toMatchObject({ state: 'up', nextCheckAt: null });
  });
});

describe('websocket reopenings are logged (part 12e)', () => {
  it('a dropped socket: the drop and the reopening are told, with the prompt', async () => {
    const comfy = await standIn({ stepDelayMs: 20 });
    const log = recordingLog();
    comfy.events.once('progress', () => comfy.dropSockets());
    const made = engine([comfy.url], { prompt: { reconnectMs: 30_000 }, log });
    await made.generate(previewParams(), () => undefined, never());
    const promptId = comfy.prompts[0]?.prompt_id;
    expect(log.lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 'warn',
          message: 'ComfyUI websocket dropped, reopening',
          details: expect.objectContaining({ server: comfy.url, promptId }),
        }),
        expect.objectContaining({
          level: 'info',
          message: 'ComfyUI websocket reopened',
          details: expect.objectContaining({ server: comfy.url, promptId, attempts: 1 }),
        }),
      ]),
    );
  });
});
