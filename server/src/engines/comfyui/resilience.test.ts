import { errorText } from '@tessera/contract';
// What a farm of GPU servers does every day, against the stand-in: sockets drop, messages get
// lost, prompts hang, files are gone (a 4xx), and history piles up.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { comfyEngines, never } from '../../testing/comfyui-engines.js';
import { createTestStore, silentLogger, type TestStore } from '../../testing/fixtures.js';
import { bricksPng } from '../../testing/http.js';
import { JobRunner } from '../../jobs/runner.js';
import type { JobRecord } from '../../jobs/job.js';
import { createJobQueue } from '../../store/jobs.js';
import { PREVIEW_PARAMS } from '../../testing/job-params.js';
import { ServerStopping } from '../../runtime/shutdown.js';
import type { RemotePrompt } from '../engine.js';
import { ComfyExecutionError, ComfyRequestError } from './errors.js';
import type { ComfyWorkflow } from './api-types.js';
import { DEFAULT_WORKFLOWS_DIR } from './workflows.js';

const comfyui = comfyEngines('tessera-comfy-resilience-', () => bricksPng(128, 128));
const { standIn, engine, previewParams } = comfyui;

describe('lost sockets and lost messages (part 1)', () => {
  it('a websocket dropped mid-prompt: reopened with the same client id, the job still finishes', async () => {
    const comfy = await standIn({ stepDelayMs: 20 });
    comfy.events.once('progress', () => comfy.dropSockets());
    const made = engine([comfy.url]);
    const params = previewParams();
    await made.generate(params, () => undefined, never());

    expect(fs.existsSync(params.outputPath)).toBe(true);
    expect(comfy.prompts).toHaveLength(1);
    // No cancel: the prompt ran to its end once.
    expect(comfy.requests.some((r) => r.path === '/interrupt')).toBe(false);
    // The socket was opened again with the prompt's client id.
    expect(comfy.socketClients.filter((id) => id === comfy.prompts[0]?.client_id)).toHaveLength(2);
    expect((await made.health()).servers?.[0]?.state).toBe('up');
  });

  it('a socket ComfyUI forgot (an older socket of its client id closed late): /history ends it', async () => {
    const comfy = await standIn({ stepDelayMs: 20 });
    const made = engine([comfy.url], { prompt: { pollMs: 50 } });
    // ComfyUI forgets a client id when any socket of that id closes: a second socket of the
    // job's id opened and closed mid-prompt leaves Tessera's socket hearing nothing more.
    comfy.events.once('progress', ({ prompt_id: id }: { prompt_id: string }) => {
      const clientId = comfy.prompts.find((p) => p.prompt_id === id)?.client_id ?? '';
      const other = new WebSocket(`${comfy.url.replace('http', 'ws')}/ws?clientId=${clientId}`);
      other.once('open', () => other.close());
    });
    const params = previewParams();
    await made.generate(params, () => undefined, never());
    expect(fs.existsSync(params.outputPath)).toBe(true);
    expect(comfy.prompts).toHaveLength(1);
    const id = comfy.prompts[0]?.prompt_id ?? '';
    expect(comfy.requests.some((r) => r.method === 'GET' && r.path === `/history/${id}`)).toBe(
      true,
    );
  });

  it('a lost `executing null` on a live socket: the end is learnt from /history', async () => {
    const comfy = await standIn({
      dropMessage: (message) =>
        message.type === 'executing' && (message.data as { node: unknown }).node === null,
    });
    const made = engine([comfy.url], { prompt: { pollMs: 50 } });
    const params = previewParams();
    await made.generate(params, () => undefined, never());

    expect(fs.existsSync(params.outputPath)).toBe(true);
    const id = comfy.prompts[0]?.prompt_id ?? '';
    expect(comfy.requests.some((r) => r.method === 'GET' && r.path === `/history/${id}`)).toBe(
      true,
    );
  });

  it('past the execution deadline the prompt is interrupted, the job fails readably and is retried', async () => {
    const comfy = await standIn();
    comfy.holdAt('3');
    // The first run is held until interrupted at its deadline; the retry runs freely, and needs
    // less than the deadline on a loaded machine (at 200 ms it did not always).
    const made = engine([comfy.url], { prompt: { deadlineMs: 4000 } });
    comfy.events.once('done', () => comfy.release());
    const store: TestStore = await createTestStore(['ann']);
    try {
      const repo = createJobQueue(store.db);
      const owner = (await store.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
      const runner = new JobRunner(
        repo,
        {
          hd: { concurrency: 1, maxAttempts: 1, retryDelayMs: () => 10 },
          preview: { concurrency: 1, maxAttempts: 2, retryDelayMs: () => 10 },
          maps: { concurrency: 1, maxAttempts: 1, retryDelayMs: () => 10 },
          print: { concurrency: 1, maxAttempts: 1, retryDelayMs: () => 10 },
        },
        silentLogger,
      );
      const seen: JobRecord[] = [];
      const finished = new Promise<JobRecord>((resolve) =>
        runner.onChange((job) => {
          seen.push(job);
          if (job.status === 'finished' || job.status === 'error') resolve(job);
        }),
      );
      await runner.start({
        hd: () => Promise.reject(new Error('no HD here')),
        maps: () => Promise.reject(new Error('no maps here')),
        print: () => Promise.reject(new Error('no print files here')),
        preview: async () => {
          await made.generate(previewParams(), () => undefined, never());
          return 'out.png';
        },
      });
      await runner.enqueue({
        publicId: 'p1',
        ownerId: owner,
        kind: 'preview',
        params: PREVIEW_PARAMS,
      });
      const job = await finished;
      await runner.stop();

      expect(job.status).toBe('finished');
      expect(job.attempts).toBe(2);
      // The engine's own words ("ComfyUI did not finish prompt … within 4 s") go to the log;
      // the job keeps the text a user may read (issue 22, part 5).
      const retried = seen.find((j) => j.status === 'queued' && j.error);
      expect(retried?.error).toBe(errorText('JOB_FAILED'));
      const first = comfy.prompts[0]?.prompt_id;
      expect(comfy.requests).toContainEqual({
        method: 'POST',
        path: '/interrupt',
        body: { prompt_id: first },
      });
      expect(comfy.prompts).toHaveLength(2);
    } finally {
      await store.close();
    }
  });
});

describe('a 4xx is not a dead server (part 5)', () => {
  it('a 404 from /view fails the job; the server stays up', async () => {
    const comfy = await standIn();
    // Someone cleared ComfyUI's output folder before Tessera downloaded the image.
    comfy.events.on('done', () =>
      fs.rmSync(comfy.folders.output, { recursive: true, force: true }),
    );
    const made = engine([comfy.url]);
    const failure = made.generate(previewParams(), () => undefined, never());
    await expect(failure).rejects.toBeInstanceOf(ComfyRequestError);
    await expect(failure).rejects.toThrow(`ComfyUI server ${comfy.url}: GET /view answered 404`);
    const health = await made.health();
    expect(health.servers?.[0]).toMatchObject({ state: 'up', lastError: null });
  });

  it('a 413 from /upload/image fails the job; the server stays up', async () => {
    const comfy = await standIn({ maxUploadBytes: 1000 });
    const made = engine([comfy.url]);
    const failure = made.generate(previewParams(), () => undefined, never());
    await expect(failure).rejects.toBeInstanceOf(ComfyRequestError);
    // aiohttp's plain-text reason is kept: the operator sees which limit it was.
    await expect(failure).rejects.toThrow(
      'POST /upload/image answered 413: Maximum request body size 1000 exceeded.',
    );
    expect((await made.health()).servers?.[0]?.state).toBe('up');
  });
});

describe('Tessera stopping mid-prompt (part 2)', () => {
  it('a graceful stop leaves the prompt running; the rerun picks it up without queueing again', async () => {
    const comfy = await standIn();
    comfy.holdAt('3');
    const made = engine([comfy.url]);
    const noted: RemotePrompt[] = [];
    // The engine notes the prompt once ComfyUI has queued it (held at its sampler, it stays).
    let queued!: () => void;
    const running = new Promise<void>((resolve) => (queued = resolve));
    const remote = {
      queued: async (prompt: RemotePrompt) => {
        noted.push(prompt);
        queued();
      },
    };
    const stopping = new AbortController();
    const first = made.generate(previewParams({ remote }), () => undefined, stopping.signal);
    await running;
    expect(comfy.queueRemaining()).toBe(1);
    stopping.abort(new ServerStopping());
    await expect(first).rejects.toBeInstanceOf(ServerStopping);
    // Nothing taken back: no interrupt, no POST /queue {delete}.
    expect(
      comfy.requests.some(
        (r) => r.method === 'POST' && (r.path === '/interrupt' || r.path === '/queue'),
      ),
    ).toBe(false);
    expect(comfy.queueRemaining()).toBe(1);

    const rerun = previewParams({ remote: { ...remote, previous: noted[0] } });
    const second = made.generate(rerun, () => undefined, never());
    // The rerun follows the prompt on a socket of its client id.
    await comfy.until(
      () => comfy.socketClients.filter((id) => id === noted[0]?.clientId).length === 2,
    );
    comfy.release();
    await second;
    expect(fs.existsSync(rerun.outputPath)).toBe(true);
    expect(comfy.prompts).toHaveLength(1);
    expect(comfy.uploads).toHaveLength(1);
  });

  it('a prompt that finished while Tessera was away is downloaded from its history', async () => {
    const comfy = await standIn();
    const made = engine([comfy.url]);
    const noted: RemotePrompt[] = [];
    const remote = { queued: async (prompt: RemotePrompt) => void noted.push(prompt) };
    const stopping = new AbortController();
    comfy.events.once('prompt', () => stopping.abort(new ServerStopping()));
    const done = new Promise((resolve) => comfy.events.once('done', resolve));
    await expect(
      made.generate(previewParams({ remote }), () => undefined, stopping.signal),
    ).rejects.toBeInstanceOf(ServerStopping);
    await done;
    const rerun = previewParams({ remote: { ...remote, previous: noted[0] } });
    await made.generate(rerun, () => undefined, never());
    expect(fs.existsSync(rerun.outputPath)).toBe(true);
    expect(comfy.prompts).toHaveLength(1);
  });
});

describe("operators' settings (part 6)", () => {
  it.each([
    [
      'a header',
      { header: { name: 'X-API-Key', value: 'k1' } },
      { header: { name: 'x-api-key', value: 'k1' } },
    ],
    [
      'a bearer token',
      { header: { name: 'authorization', value: 'Bearer t1' } },
      { bearerToken: 't1' },
    ],
    [
      'a query token',
      { query: { name: 'token', value: 'q1' } },
      { queryToken: { name: 'token', value: 'q1' } },
    ],
  ] as const)(
    'authenticates to a proxy by %s, on every route and the websocket',
    async (_, requireAuth, auth) => {
      const comfy = await standIn({ requireAuth });
      const made = engine([comfy.url], { client: { auth } });
      const params = previewParams();
      await made.generate(params, () => undefined, never());
      expect(fs.existsSync(params.outputPath)).toBe(true);
      // Without it the proxy refuses: a 401 is the job's error, the server is not "down".
      const without = engine([comfy.url]);
      await expect(without.generate(previewParams(), () => undefined, never())).rejects.toThrow(
        /answered 401|No ComfyUI server/,
      );
    },
  );

  it('a download has no fixed time limit while bytes come; one that stalls fails', async () => {
    // 16 KB every 50 ms: each pause well inside the 500 ms idle timeout, the whole longer than it.
    const slowView = { chunkBytes: 16_384, pauseMs: 50 };
    const slow = await standIn({ slowView });
    const made = engine([slow.url], { client: { transferIdleTimeoutMs: 500 } });
    const params = previewParams({ width: 1448, height: 724 });
    await made.generate(params, () => undefined, never());
    expect(fs.existsSync(params.outputPath)).toBe(true);
    // The whole took longer than the timeout by construction: a pause after each chunk.
    const chunks = Math.ceil(fs.statSync(params.outputPath).size / slowView.chunkBytes);
    expect((chunks - 1) * slowView.pauseMs).toBeGreaterThan(2 * 500);

    const stalled = await standIn({
      slowView: { chunkBytes: 1000, pauseMs: 1, stallAfterBytes: 1000 },
    });
    // No outage window: within one the download would be tried again (the prompt's history kept).
    const failing = engine([stalled.url], {
      client: { transferIdleTimeoutMs: 300 },
      outageWindowMs: 0,
    });
    await expect(failing.generate(previewParams(), () => undefined, never())).rejects.toThrow(
      `ComfyUI server ${stalled.url}: GET /view sent nothing for 0.3 s`,
    );
  });
});

describe('a 200 with node_errors (part 8)', () => {
  const templateWith = (extra: Record<string, unknown>, dir: string) => {
    const preview = JSON.parse(
      fs.readFileSync(path.join(import.meta.dirname, 'workflows', 'preview.json'), 'utf8'),
    ) as Record<string, unknown>;
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'preview.json'), JSON.stringify({ ...preview, ...extra }));
    return dir;
  };
  // A second output whose ImageScale is out of range: ComfyUI queues the prompt (200), runs the
  // outputs that passed and names the other in node_errors.
  const brokenPreview = {
    '50': {
      class_type: 'ImageScale',
      inputs: {
        image: ['12', 0],
        upscale_method: 'lanczos',
        width: -5,
        height: 8,
        crop: 'disabled',
      },
    },
    '51': { class_type: 'PreviewImage', inputs: { images: ['50', 0] } },
  };

  it('errors of another output leave the job to finish', async () => {
    const comfy = await standIn();
    const dir = templateWith(brokenPreview, path.join(comfyui.dir, 'extra-output'));
    const made = engine([comfy.url], { workflowsDir: dir });
    const params = previewParams();
    await made.generate(params, () => undefined, never());
    expect(fs.existsSync(params.outputPath)).toBe(true);
    expect(comfy.prompts).toHaveLength(1);
  });

  it('errors that reach node 9 fail the job, and the prompt is taken off the queue', async () => {
    const comfy = await standIn({ paused: true });
    // Node 9 saves the broken branch now; the extra PreviewImage keeps the prompt valid (200).
    const dir = templateWith(
      {
        ...brokenPreview,
        '9': { class_type: 'SaveImage', inputs: { images: ['50', 0], filename_prefix: 'x' } },
        '52': { class_type: 'PreviewImage', inputs: { images: ['721', 0] } },
      },
      path.join(comfyui.dir, 'broken-output'),
    );
    const made = engine([comfy.url], { workflowsDir: dir });
    await expect(made.generate(previewParams(), () => undefined, never())).rejects.toThrow(
      'ComfyUI refused the workflow: node 50 (ImageScale): Value -5 smaller than min of 0: width',
    );
    expect(comfy.requests).toContainEqual({
      method: 'POST',
      path: '/queue',
      body: { delete: [comfy.prompts[0]?.prompt_id] },
    });
    expect(comfy.queueRemaining()).toBe(0);
  });
});

describe('cleanup (part 7)', () => {
  it('a finished prompt’s history is deleted; the upload went to the temp folder, not input', async () => {
    const comfy = await standIn();
    const made = engine([comfy.url]);
    await made.generate(previewParams(), () => undefined, never());
    const id = comfy.prompts[0]?.prompt_id ?? '';
    expect(comfy.requests).toContainEqual({
      method: 'POST',
      path: '/history',
      body: { delete: [id] },
    });
    expect(await (await fetch(`${comfy.url}/history/${id}`)).json()).toEqual({});
    expect(fs.readdirSync(comfy.folders.input)).toEqual([]);
    expect(fs.readdirSync(path.join(comfy.folders.temp, 'tessera'))).toEqual(['slot-0.png']);
  });

  it('after many jobs the server holds one upload per job in flight, each prompt loaded its own image, and no history', async () => {
    const comfy = await standIn();
    const made = engine([comfy.url]);
    const references = await Promise.all(
      ['#c03020', '#2040c0'].map(async (colour, i) => {
        const file = path.join(comfyui.dir, `solid-${i}.png`);
        await sharp({ create: { width: 96, height: 96, channels: 3, background: colour } })
          .png()
          .toFile(file);
        return file;
      }),
    );
    const red = references[0] ?? '';
    const blue = references[1] ?? '';
    /** The output's mean colour, rounded: the same reference and seed give the same one. */
    const run = async (referencePath: string) => {
      const params = previewParams({ referencePath, width: 64, height: 64 });
      await made.generate(params, () => undefined, never());
      const { channels } = await sharp(params.outputPath).stats();
      return channels.slice(0, 3).map((c) => Math.round(c.mean));
    };
    // One at a time: always slot 0, overwritten with another image each time. ComfyUI's cache
    // (LoadImage hashes the file) must load each one afresh, never the one before.
    const sequential = [];
    for (const reference of [red, blue, red, blue]) sequential.push(await run(reference));
    expect(sequential[0]).not.toEqual(sequential[1]);
    expect(sequential[2]).toEqual(sequential[0]);
    expect(sequential[3]).toEqual(sequential[1]);
    // Three at once on one server: all three queued there together, each in a slot of its own.
    const together = await Promise.all([run(red), run(blue), run(red)]);
    expect(together).toEqual([sequential[0], sequential[1], sequential[0]]);
    const slots = comfy.prompts.slice(4).map((p) => p.prompt['12']?.inputs.image);
    expect(new Set(slots).size).toBe(3);

    expect(comfy.prompts).toHaveLength(7);
    expect(fs.readdirSync(path.join(comfy.folders.temp, 'tessera')).sort()).toEqual([
      'slot-0.png',
      'slot-1.png',
      'slot-2.png',
    ]);
    expect(fs.readdirSync(comfy.folders.input)).toEqual([]);
    expect(await (await fetch(`${comfy.url}/history`)).json()).toEqual({});
  });

  it('a slot a prompt in the server’s queue still names (queued before a restart) is not overwritten', async () => {
    const comfy = await standIn({ paused: true });
    // A prompt an earlier Tessera process queued, waiting on the server with its upload.
    const earlier = await sharp({
      create: { width: 32, height: 32, channels: 3, background: '#00ff00' },
    })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('image', new Blob([earlier], { type: 'image/png' }), 'slot-0.png');
    form.append('type', 'temp');
    form.append('subfolder', 'tessera');
    form.append('overwrite', 'true');
    await fetch(`${comfy.url}/upload/image`, { method: 'POST', body: form });
    const waiting = JSON.parse(
      fs.readFileSync(path.join(DEFAULT_WORKFLOWS_DIR, 'preview.json'), 'utf8'),
    ) as ComfyWorkflow;
    waiting['12'] = { class_type: 'LoadImage', inputs: { image: 'tessera/slot-0.png [temp]' } };
    const queued = await fetch(`${comfy.url}/prompt`, {
      method: 'POST',
      body: JSON.stringify({ prompt: waiting }),
    });
    expect(queued.status).toBe(200);

    const job = engine([comfy.url]).generate(previewParams(), () => undefined, never());
    await comfy.until(() => comfy.prompts.length === 2);
    expect(comfy.prompts[1]?.prompt['12']?.inputs.image).toBe('tessera/slot-1.png [temp]');
    expect(fs.readFileSync(path.join(comfy.folders.temp, 'tessera', 'slot-0.png'))).toEqual(
      earlier,
    );
    comfy.resume();
    await job;
  });

  it('[#16] two processes sharing a server upload to slots of their own instance names, never the same', async () => {
    const comfy = await standIn({ paused: true });
    const first = engine([comfy.url], { instance: 'worker-a' });
    const second = engine([comfy.url], { instance: 'worker-b' });
    // Both processes pick slots at the same moment, before either's prompt is in the queue.
    const jobs = [first, second, first, second].map((made) =>
      made.generate(previewParams({ width: 64, height: 64 }), () => undefined, never()),
    );
    await comfy.until(() => comfy.prompts.length === 4);
    const images = comfy.prompts.map((p) => p.prompt['12']?.inputs.image);
    expect(new Set(images).size).toBe(4);
    expect(
      images.filter((image) => String(image).startsWith('tessera/worker-a-slot-')),
    ).toHaveLength(2);
    expect(
      images.filter((image) => String(image).startsWith('tessera/worker-b-slot-')),
    ).toHaveLength(2);
    comfy.resume();
    await Promise.all(jobs);
    expect(fs.readdirSync(path.join(comfy.folders.temp, 'tessera')).sort()).toEqual([
      'worker-a-slot-0.png',
      'worker-a-slot-1.png',
      'worker-b-slot-0.png',
      'worker-b-slot-1.png',
    ]);
  });

  it('a failed prompt’s history is deleted too', async () => {
    const comfy = await standIn({ failAtNode: '3' });
    const made = engine([comfy.url]);
    const failure = made.generate(previewParams(), () => undefined, never());
    await expect(failure).rejects.toBeInstanceOf(ComfyExecutionError);
    const id = comfy.prompts[0]?.prompt_id ?? '';
    // The history is deleted after the job has failed.
    await comfy.until(() =>
      comfy.requests.some((r) => r.path === '/history' && r.method === 'POST'),
    );
    expect(comfy.requests).toContainEqual({
      method: 'POST',
      path: '/history',
      body: { delete: [id] },
    });
    expect(await (await fetch(`${comfy.url}/history/${id}`)).json()).toEqual({});
  });
});
