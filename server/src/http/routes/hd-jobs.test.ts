import { randomUUID } from 'node:crypto';
import {
  API_ROUTES,
  buildHdCommand,
  hdJobsResponseSchema,
  inputsResponseSchema,
  type HdJobsResponse,
} from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bricksPng, finishedPreview, previewFields, signIn } from '../../testing/http.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';

let t: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  t = await startTestServer(['alice', 'bob'], 'embedded');
  [alice, bob] = await Promise.all([signIn(t.server.url, 'alice'), signIn(t.server.url, 'bob')]);
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

const get = (path: string, cookie?: string) =>
  fetch(`${t.server.url}${path}`, { headers: cookie ? { cookie } : {} });

describe('the references library (GET /api/query/inputs)', () => {
  it('lists each uploaded reference with the LD images made from it, to its owner only', async () => {
    const form = {
      file: { name: 'Ladrillo Viejo.png', data: await bricksPng(128, 128) },
      fields: previewFields('alice', { image: 'Ladrillo Viejo.png' }),
    };
    const done = await finishedPreview(t.server.url, alice, form, () => t.nextJobChange('alice'));

    const res = await get('/api/query/inputs', alice);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { inputs } = inputsResponseSchema.parse(await res.json());
    expect(inputs).toHaveLength(1);
    expect(inputs[0]?.filename).toMatch(/^Ladrillo-Viejo-[0-9a-f]{8}\.png$/);
    expect(inputs[0]?.images).toEqual([done.output_image]);
    const served = await get(`/api/images/input/${inputs[0]?.filename ?? ''}`, alice);
    expect(served.status).toBe(200);

    expect(await (await get('/api/query/inputs', bob)).json()).toEqual({ inputs: [] });
    expect((await get(`/api/images/input/${inputs[0]?.filename ?? ''}`, bob)).status).toBe(404);
  }, 60_000);

  it('answers 401 without a session', async () => {
    expect((await get('/api/query/inputs')).status).toBe(401);
    expect((await get('/api/query/hd-jobs')).status).toBe(401);
  });
});

describe('the HD queue (GET /api/query/hd-jobs, POST /api/command/cancel-hd-job)', () => {
  const cancel = (body: string, cookie = alice) =>
    fetch(`${t.server.url}/api/command/cancel-hd-job`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body,
    });

  it('is empty before any order', async () => {
    expect(await (await get('/api/query/hd-jobs', bob)).json()).toEqual({
      jobs: [],
      paused: false,
    });
  });

  it('refuses a cancel without a usable id, and an unknown id, changing nothing', async () => {
    expect((await cancel('{}')).status).toBe(400);
    expect((await cancel('not json')).status).toBe(400);
    expect((await cancel(JSON.stringify({ id: 'x'.repeat(129) }))).status).toBe(400);
    expect((await cancel(JSON.stringify({ id: { $ne: null } }))).status).toBe(400);
    const unknown = await cancel(JSON.stringify({ id: 'no-such-job' }));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'No such job' });
  });
});

describe('HD queue control (move to top, pause, resume)', () => {
  const post = (path: string, cookie: string, body?: unknown) =>
    fetch(`${t.server.url}${path}`, {
      method: 'POST',
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined
        ? {}
        : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  const queueOf = async (cookie: string): Promise<HdJobsResponse> =>
    hdJobsResponseSchema.parse(await (await get(API_ROUTES.hdJobs, cookie)).json());
  /** The queued jobs' images in the order they will run, as the answer numbers them. */
  const runOrder = (queue: HdJobsResponse) =>
    queue.jobs
      .filter((job) => job.status === 'queued')
      .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
      .map((job) => job.image);

  const leather = () =>
    sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#7a5230' } })
      .png()
      .toBuffer();

  it('orders, moves, pauses and resumes only the owner’s queue; the jobs run in the order shown', async () => {
    const client = await t.connect('alice');
    const images = ['q-one.png', 'q-two.png', 'q-three.png'];
    for (const image of images) await t.files.write('alice', 'ld', image, await leather());
    expect((await client.call('refresh-low-definition')).success).toBe(true);

    // Paused before ordering: nothing may start.
    const paused = await post(API_ROUTES.pauseHdQueue, alice);
    expect(paused.status).toBe(200);
    expect(hdJobsResponseSchema.parse(await paused.json()).paused).toBe(true);
    const ids = new Map<string, string>();
    for (const image of images) {
      const id = randomUUID();
      ids.set(image, id);
      await client.send(
        client.commandTopic('generate-image'),
        buildHdCommand({ id, user: 'alice', image, metadata: {}, sizeLabel: '30x30' }),
      );
    }
    // The queue page read again at each change of Alice's jobs (each order queued is one).
    await t.waitForJobs(
      'alice',
      'the three orders queued',
      async () =>
        JSON.stringify(runOrder(await queueOf(alice))) === JSON.stringify(images) || undefined,
      10_000,
    );
    // The runner passes them over: Bob's two orders, one after the other, both run. Once he has
    // been served Alice's turn comes first, so his second job is claimed only because hers cannot.
    for (const image of ['b-0.png', 'b-1.png'])
      await t.files.write('bob', 'ld', image, await leather());
    const bobs = await t.connect('bob');
    expect((await bobs.call('refresh-low-definition')).success).toBe(true);
    for (let n = 0; n < 2; n++) {
      await bobs.send(
        bobs.commandTopic('generate-image'),
        buildHdCommand({
          id: randomUUID(),
          user: 'bob',
          image: `b-${n}.png`,
          metadata: {},
          sizeLabel: '30x30',
        }),
      );
      // (The HTTP queue is read again at each change of Bob's jobs until the job ends.)
      await t.waitForJobs(
        'bob',
        `Bob's ${n + 1} orders finished`,
        async () =>
          JSON.stringify((await queueOf(bob)).jobs.map((job) => job.status)) ===
            JSON.stringify(Array.from({ length: n + 1 }, () => 'finished')) || undefined,
        30_000,
      );
    }
    const waiting = await queueOf(alice);
    expect(waiting.paused).toBe(true);
    expect(waiting.jobs.map((job) => [job.image, job.status, job.position])).toEqual([
      ['q-three.png', 'queued', 3],
      ['q-two.png', 'queued', 2],
      ['q-one.png', 'queued', 1],
    ]);

    // Bob cannot touch Alice's jobs or queue: unknown to him, and nothing changes.
    const third = ids.get('q-three.png') ?? '';
    const stolen = await post(API_ROUTES.moveHdJobToTop, bob, { id: third });
    expect(stolen.status).toBe(404);
    expect(await stolen.json()).toEqual({ error: 'No such job' });
    const bobsQueue = hdJobsResponseSchema.parse(
      await (await post(API_ROUTES.resumeHdQueue, bob)).json(),
    );
    expect(bobsQueue.paused).toBe(false);
    expect(bobsQueue.jobs.map((job) => job.image).sort()).toEqual(['b-0.png', 'b-1.png']);
    for (const bad of ['{}', 'not json', JSON.stringify({ id: 'x'.repeat(129) })]) {
      expect((await post(API_ROUTES.moveHdJobToTop, alice, bad)).status).toBe(400);
    }
    expect((await post(API_ROUTES.moveHdJobToTop, alice, { id: 'no-such-job' })).status).toBe(404);
    expect(
      (await post(API_ROUTES.moveHdJobToTop, 'tessera_session=forged', { id: third })).status,
    ).toBe(401);
    expect(runOrder(await queueOf(alice))).toEqual(images);
    expect((await queueOf(alice)).paused).toBe(true);

    // Alice moves the third to the top: the answer is the queue in its new order.
    const moved = await post(API_ROUTES.moveHdJobToTop, alice, { id: third });
    expect(moved.status).toBe(200);
    expect(runOrder(hdJobsResponseSchema.parse(await moved.json()))).toEqual([
      'q-three.png',
      'q-one.png',
      'q-two.png',
    ]);

    const resumed = await post(API_ROUTES.resumeHdQueue, alice);
    expect(hdJobsResponseSchema.parse(await resumed.json()).paused).toBe(false);
    await t.waitForJobs(
      'alice',
      "Alice's orders finished",
      async () =>
        (await queueOf(alice)).jobs.every((job) => job.status === 'finished') || undefined,
      60_000,
    );
    // The order they started in, as the status stream told Alice.
    const started = client.received
      .filter((m) => m.topic === 'query/status-generate-image/user/alice')
      .filter((m) => m.body.status === 'in_progress' && m.body.percent === 0)
      .map((m) => m.body.image);
    expect(started).toEqual(['q-three.png', 'q-one.png', 'q-two.png']);

    // A finished job cannot be moved.
    const done = await post(API_ROUTES.moveHdJobToTop, alice, { id: third });
    expect(done.status).toBe(409);
    expect(await done.json()).toEqual({ error: 'Only a queued job can be moved' });
  }, 90_000);
});
