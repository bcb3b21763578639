import { randomUUID } from 'node:crypto';
import {
  buildHdCommand,
  errorText,
  HD_DETAIL_WIDTH_KEY,
  hdPrintSize,
  hdTargetSize,
  OUTPUT_FORMATS,
  type HdSizeLabel,
  type HdStatusMessage,
} from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BuiltinEngine } from '../engines/builtin/builtin-engine.js';
import type { Engine } from '../engines/engine.js';
import type { ServerOverrides } from '../server.js';
import { signIn } from '../testing/http.js';
import type { TestClient } from '../testing/test-client.js';
import { mosquittoAvailable } from '../testing/mosquitto.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

/** HD status messages a user's client received, in order. */
function statuses(client: TestClient): HdStatusMessage[] {
  return client.received
    .filter((m) => m.topic === `query/status-generate-image/user/${client.username}`)
    .map((m) => m.body as unknown as HdStatusMessage);
}

/** Waits for the order's last word: finished, or an error (a retry is told as queued, not error). */
function settled(client: TestClient, id: string, timeoutMs?: number) {
  return client.waitFor(
    `the last word on HD order ${id}`,
    () => {
      const mine = statuses(client).filter((s) => s.id === id);
      const last = mine.at(-1);
      if (last?.status === 'finished') return mine;
      if (last?.status === 'error') {
        return mine;
      }
      return undefined;
    },
    timeoutMs,
  );
}

/** An LD image of a format's exact size in the user's folder, indexed by refresh (as the engines' output would be). */
async function placeLd(
  t: TestServer,
  client: TestClient,
  filename: string,
  width: number,
  height: number,
) {
  const png = await sharp({
    create: { width, height, channels: 3, background: '#a0522d' },
  })
    .composite([
      {
        input: await sharp({
          create: { width: 16, height: 16, channels: 3, background: '#f5deb3' },
        })
          .png()
          .toBuffer(),
        tile: true,
        blend: 'over',
        gravity: 'northwest',
        left: 0,
        top: 0,
      },
    ])
    .png()
    .toBuffer();
  await t.files.write(client.username, 'ld', filename, png);
  const answer = await client.call('refresh-low-definition');
  expect(answer.success).toBe(true);
}

function order(client: TestClient, image: string, size: HdSizeLabel, seedMetadata = {}) {
  const command = buildHdCommand({
    id: randomUUID(),
    user: client.username,
    image,
    metadata: seedMetadata,
    sizeLabel: size,
  });
  return { command, sent: client.send(client.commandTopic('generate-image'), command) };
}

async function jobCount(t: TestServer): Promise<number> {
  const row = await t.db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('kind', '=', 'hd')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The builtin engine (Lanczos pass, fast) whose upscale fails the first `failures` times. */
function flakyEngine(failures: number): Engine {
  const real = new BuiltinEngine({ upscaler: 'lanczos' });
  let calls = 0;
  return {
    name: 'flaky',
    generate: (...args) => real.generate(...args),
    upscale: (...args) =>
      ++calls <= failures
        ? Promise.reject(new Error(`injected failure ${calls}`))
        : real.upscale(...args),
  };
}

describe('HD orders over a real broker', () => {
  let t: TestServer;
  let alice: TestClient;
  let bob: TestClient;

  beforeAll(async () => {
    t = await startTestServer(['alice', 'bob'], 'embedded');
    alice = await t.connect('alice');
    bob = await t.connect('bob');
    await placeLd(t, alice, 'square.png', 1024, 1024);
    await placeLd(t, alice, 'rectangle.png', 1448, 724);
    await placeLd(t, alice, 'slab.png', 677, 1548);
    await placeLd(t, alice, 'plank.png', 2506, 418);
    // Four refreshes, each making a thumbnail: past Vitest's 10 s on a loaded machine.
  }, 60_000);
  afterAll(() => t.stop());

  const cases: [string, HdSizeLabel, keyof typeof OUTPUT_FORMATS_BY_NAME][] = [
    ['square.png', '30x30', 'Square'],
    ['rectangle.png', '30x60', 'Rectangle'],
    ['slab.png', '160x70', 'Slab'],
    ['plank.png', '120x20', 'Plank'],
  ];
  for (const [image, size, format] of cases) {
    it(`[H3] ${format} at ${size}: queued, rising in_progress, finished, at the exact pixel size`, async () => {
      const { command, sent } = order(alice, image, size);
      await sent;
      const messages = await settled(alice, command.id);
      const kinds = messages.map((m) => m.status);
      expect(kinds[0]).toBe('queued');
      expect(kinds.at(-1)).toBe('finished');
      const percents = messages.filter((m) => m.status === 'in_progress').map((m) => m.percent);
      expect(percents.length).toBeGreaterThanOrEqual(3);
      expect(percents).toEqual([...percents].sort((a, b) => a - b));
      expect(new Set(percents).size).toBeGreaterThanOrEqual(3);
      for (const m of messages) expect(m.image).toBe(image);

      const output = messages.at(-1)?.output_image ?? '';
      const { width, height } = OUTPUT_FORMATS_BY_NAME[format];
      const target = hdTargetSize(width, height, size);
      expect(output).toMatch(new RegExp(`^${image.replace('.png', '')}_${size}\\.(png|jpg)$`));
      const file = t.storedPath('alice', 'hd', output);
      const meta = await sharp(file, { limitInputPixels: false }).metadata();
      expect({ width: meta.width, height: meta.height }).toEqual(target);
      expect(meta.format).toBe(target.width * target.height <= 25_000_000 ? 'png' : 'jpeg');
      // It carries the ordered size: width ÷ density is the ordered centimetres (sharp reads
      // the density as whole dots per inch, so within half a dot's worth).
      const print = hdPrintSize(size, target.width, target.height);
      expect(meta.density).toBe(Math.round(print.dotsPerInch));
      const printedCm = (target.width / (meta.density ?? 1)) * 2.54;
      expect(Math.abs(printedCm / print.widthCm - 1)).toBeLessThan(0.5 / print.dotsPerInch);

      const item = await alice.listedImage('hd', output);
      expect(item?.metadata).toMatchObject({
        rescale_factor_cr711: 1.74,
        scale_by_latent707: 1,
        size,
        source_image: image,
        // The Lanczos upscaler runs no network: the detail is the LD image's own width.
        [HD_DETAIL_WIDTH_KEY]: width,
      });
    }, 120_000);
  }

  it("[H2] wrong factors, an unknown image and another user's image each get an error status and no job", async () => {
    const before = await jobCount(t);
    const wrong = {
      ...buildHdCommand({
        id: 'wrong-factors',
        user: 'alice',
        image: 'square.png',
        metadata: {},
        sizeLabel: '30x30',
      }),
      scale_by_image692: '9.99',
    };
    await alice.send(alice.commandTopic('generate-image'), wrong);
    const unknown = order(alice, 'nothing-here.png', '30x30');
    await unknown.sent;
    // Bob names alice's image on his own topic: to him it does not exist.
    const stolen = order(bob, 'square.png', '30x30');
    await stolen.sent;
    // A size of another format: Plank only offers 120x20.
    const offFormat = order(alice, 'plank.png', '30x30');
    await offFormat.sent;

    const errorFor = (client: TestClient, id: string) =>
      client.waitFor(`an error of ${id}`, () =>
        statuses(client).find((s) => s.id === id && s.status === 'error'),
      );
    expect((await errorFor(alice, 'wrong-factors')).error).toMatch(/factors match no HD size/);
    expect((await errorFor(alice, unknown.command.id)).error).toMatch(/not found/);
    expect((await errorFor(bob, stolen.command.id)).error).toMatch(/not found/);
    expect((await errorFor(alice, offFormat.command.id)).error).toMatch(/not offered/);
    expect(statuses(alice).some((s) => s.id === stolen.command.id)).toBe(false);
    expect(await jobCount(t)).toBe(before);
  });

  it('refuses malformed and hostile generate-image payloads without a job, and keeps serving', async () => {
    const before = await jobCount(t);
    const topic = alice.commandTopic('generate-image');
    const valid = buildHdCommand({
      id: 'hostile',
      user: 'alice',
      image: 'square.png',
      metadata: {},
      sizeLabel: '30x30',
    });
    await alice.send(topic, 'not json at all');
    await alice.send(topic, { ...valid, id: 'numbers', rescale_factor_cr701: 1.5 });
    await alice.send(topic, { ...valid, id: 'impostor', user: 'bob' });
    await alice.send(topic, { ...valid, id: 'escape', image: '../bob/ld/square.png' });
    await alice.send(topic, { ...valid, id: 'huge', scale_by_image692: '1e308' });
    await alice.send(
      topic,
      '{"__proto__": {"polluted": true}, "id": "proto", "user": "alice", "image": "square.png"}',
    );
    await alice.send(topic, JSON.stringify({ ...valid, id: 'deep', seed: [[[[[[1]]]]]] }));
    const errorFor = (id: string) =>
      alice.waitFor(`an error of ${id}`, () =>
        statuses(alice).find((s) => s.id === id && s.status === 'error'),
      );
    expect((await errorFor('numbers')).error).toMatch(/rescale_factor_cr701/);
    expect((await errorFor('escape')).error).toMatch(/File name/);
    expect((await errorFor('huge')).error).toMatch(/factors match no HD size/);
    expect((await errorFor('deep')).error).toMatch(/seed/);
    expect((await errorFor('proto')).error).toMatch(/rescale_factor_cr711/);
    // The impostor's payload names bob: refused as a user mismatch, with no status to anyone.
    const proof = order(alice, 'plank.png', '120x20');
    await proof.sent;
    expect((await settled(alice, proof.command.id)).at(-1)?.status).toBe('finished');
    expect(statuses(alice).some((s) => s.id === 'impostor')).toBe(false);
    expect(statuses(bob).some((s) => s.id === 'impostor')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await jobCount(t)).toBe(before + 1);
  }, 60_000);

  it("one user's many orders do not starve another user's single one", async () => {
    await placeLd(t, bob, 'bob-square.png', 1024, 1024);
    const sizes = ['30x30', '60x60', '90x90', '100x100'] as const;
    const alices = [];
    for (const size of sizes) {
      const o = order(alice, 'square.png', size);
      await o.sent;
      alices.push(o.command.id);
    }
    const bobs = order(bob, 'bob-square.png', '30x30');
    await bobs.sent;
    await settled(bob, bobs.command.id);
    for (const id of alices) await settled(alice, id);
    const claimed = await t.db
      .selectFrom('jobs')
      .select('public_id')
      .where('public_id', 'in', [...alices, bobs.command.id])
      .orderBy('claimed_at')
      .execute();
    const position = claimed.findIndex((j) => j.public_id === bobs.command.id);
    // Bob arrived fifth; at most the job already running when he ordered went before him.
    expect(position).toBeLessThanOrEqual(1);
  }, 120_000);

  it('ordering the same image and size again while it runs starts no second job', async () => {
    const before = await jobCount(t);
    const first = order(alice, 'square.png', '100x100');
    await first.sent;
    const second = order(alice, 'square.png', '100x100');
    await second.sent;
    await settled(alice, first.command.id);
    expect(await jobCount(t)).toBe(before + 1);
    // The second id is ended at once, so no client counts it queued (issue 22, part 9).
    expect(statuses(alice).filter((s) => s.id === second.command.id)).toEqual([
      expect.objectContaining({ status: 'error', reason: 'already-ordered' }),
    ]);
  }, 120_000);

  it('serves the HD file to its owner only, as a download named for its source and size', async () => {
    const { command, sent } = order(alice, 'square.png', '60x60');
    await sent;
    const output = (await settled(alice, command.id)).at(-1)?.output_image ?? '';
    const cookie = await signIn(t.server.url, 'alice');
    const res = await fetch(`${t.server.url}/api/images/hd/${output}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="${output}"; filename*=UTF-8''${output}`,
    );
    expect(output).toMatch(/^square_60x60(-\d+)?\.png$/);
    const ranged = await fetch(`${t.server.url}/api/images/hd/${output}`, {
      headers: { cookie, range: 'bytes=0-7' },
    });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    const thumb = await fetch(`${t.server.url}/api/images/hd/thumbnail/${output}`, {
      headers: { cookie },
    });
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const bobCookie = await signIn(t.server.url, 'bob');
    const other = await fetch(`${t.server.url}/api/images/hd/${output}`, {
      headers: { cookie: bobCookie },
    });
    expect(other.status).toBe(404);

    const latest = await fetch(`${t.server.url}/api/query/status-generate-image`, {
      headers: { cookie },
    });
    expect(await latest.json()).toMatchObject({ status: 'finished', output_image: output });

    const deleted = await alice.call('delete-high-definition', { filename: output });
    expect(deleted.success).toBe(true);
    expect(
      (await fetch(`${t.server.url}/api/images/hd/${output}`, { headers: { cookie } })).status,
    ).toBe(404);
  }, 120_000);

  it('lists the HD queue and cancels a queued job, not a finished one', async () => {
    const cookie = await signIn(t.server.url, 'alice');
    // One job runs at a time: the second of two waits in the queue long enough to be cancelled.
    const running = order(alice, 'square.png', '90x90');
    await running.sent;
    const waiting = order(alice, 'rectangle.png', '45x90');
    await waiting.sent;
    await alice.firstHdStatus(waiting.command.id, 60_000);

    const cancel = (id: string) =>
      fetch(`${t.server.url}/api/command/cancel-hd-job`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ id }),
      });
    expect((await cancel(waiting.command.id)).status).toBe(200);
    const jobs = (await (
      await fetch(`${t.server.url}/api/query/hd-jobs`, { headers: { cookie } })
    ).json()) as { jobs: { id: string; status: string; size: string; image: string }[] };
    expect(jobs.jobs[0]).toMatchObject({
      id: waiting.command.id,
      status: 'cancelled',
      size: '45x90',
      image: 'rectangle.png',
    });
    expect(jobs.jobs[1]?.id).toBe(running.command.id);

    await settled(alice, running.command.id);
    expect((await cancel(running.command.id)).status).toBe(409);
    expect((await cancel('no-such-job')).status).toBe(404);
    const bobCookie = await signIn(t.server.url, 'bob');
    const bobs = await fetch(`${t.server.url}/api/query/hd-jobs`, {
      headers: { cookie: bobCookie },
    });
    const bobsIds = ((await bobs.json()) as { jobs: { id: string }[] }).jobs.map((j) => j.id);
    expect(bobsIds).not.toContain(running.command.id);
    expect(bobsIds).not.toContain(waiting.command.id);
    // The cancelled job never ran; its id was ended as cancelled (issue 22, part 9).
    expect(
      statuses(alice)
        .filter((s) => s.id === waiting.command.id)
        .map((s) => [s.status, s.reason]),
    ).toEqual([
      ['queued', undefined],
      ['error', 'cancelled'],
    ]);
  }, 120_000);
});

const OUTPUT_FORMATS_BY_NAME = Object.fromEntries(OUTPUT_FORMATS.map((f) => [f.name, f])) as Record<
  'Square' | 'Rectangle' | 'Slab' | 'Plank',
  (typeof OUTPUT_FORMATS)[number]
>;

describe('HD retries', () => {
  let t: TestServer | undefined;
  afterEach(async () => {
    await t?.stop();
    t = undefined;
  });

  async function withEngine(engine: Engine) {
    const overrides: ServerOverrides = { engine, hdRetryDelayMs: () => 200 };
    t = await startTestServer(['alice'], 'embedded', overrides);
    const alice = await t.connect('alice');
    await placeLd(t, alice, 'square.png', 1024, 1024);
    return { t, alice };
  }

  it('[H4] a failed attempt that will be retried is told as queued again, not as an error, and then succeeds (issue 22, part 9)', async () => {
    const { alice } = await withEngine(flakyEngine(1));
    const { command, sent } = order(alice, 'square.png', '30x30');
    await sent;
    const messages = await settled(alice, command.id);
    const kinds = messages.map((m) => m.status).filter((s, i, all) => s !== all[i - 1]);
    expect(kinds).toEqual(['queued', 'in_progress', 'queued', 'in_progress', 'finished']);
  }, 60_000);

  it('a failure on every attempt ends in one error, with the last failure (issue 22, part 9)', async () => {
    const { t: server, alice } = await withEngine(flakyEngine(99));
    const { command, sent } = order(alice, 'square.png', '30x30');
    await sent;
    const messages = await settled(alice, command.id);
    // The engine's own words go to the log; the user reads the contract's text.
    expect(messages.at(-1)).toMatchObject({ status: 'error', error: errorText('JOB_FAILED') });
    expect(messages.filter((m) => m.status === 'error')).toHaveLength(1);
    expect(messages.filter((m) => m.status === 'queued')).toHaveLength(3);
    const job = await server.db
      .selectFrom('jobs')
      .select(['status', 'attempts'])
      .where('public_id', '=', command.id)
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'error', attempts: 3 });
    expect(await server.files.list('alice', 'hd')).toEqual([]);
  }, 60_000);
});

describe('the generated detail an HD image records (issue 26)', () => {
  let t: TestServer | undefined;
  afterEach(async () => {
    await t?.stop();
    t = undefined;
  });

  /** The Lanczos engine reporting the detail widths given, one per upscale, in turn. */
  function reportingEngine(widths: (number | undefined)[]): Engine {
    const real = new BuiltinEngine({ upscaler: 'lanczos' });
    return {
      name: 'reporting',
      generate: (...args) => real.generate(...args),
      upscale: async (...args) => {
        const { width, height } = await real.upscale(...args);
        const detailWidth = widths.shift();
        return { width, height, ...(detailWidth !== undefined && { detailWidth }) };
      },
    };
  }

  it("records the engine's detail width, never wider than the file, and nothing when it cannot tell", async () => {
    t = await startTestServer(['alice'], 'embedded', {
      engine: reportingEngine([1500.4, 99_999, undefined]),
    });
    const alice = await t.connect('alice');
    await placeLd(t, alice, 'square.png', 1024, 1024);
    const recorded: unknown[] = [];
    for (const size of ['30x30', '60x60', '30x30'] as const) {
      const { command, sent } = order(alice, 'square.png', size);
      await sent;
      const output = (await settled(alice, command.id)).at(-1)?.output_image ?? '';
      const item = await alice.listedImage('hd', output);
      recorded.push(item?.metadata[HD_DETAIL_WIDTH_KEY]);
    }
    // 1500.4 → 1500 px; 99 999 → the 60x60 file's own 4147 px; no report → no entry at all.
    expect(recorded).toEqual([1500, 4147, undefined]);
  }, 90_000);
});

describe.skipIf(!mosquittoAvailable)('HD orders through Mosquitto', () => {
  it('[H3] status messages reach the ordering user only, through the external broker', async () => {
    const t = await startTestServer(['alice', 'bob'], 'mosquitto');
    try {
      const alice = await t.connect('alice');
      const bob = await t.connect('bob');
      // Bob listens on alice's status topic too: Mosquitto's ACL must keep it from him.
      await bob.mqtt
        .subscribeAsync('query/status-generate-image/user/alice')
        .catch(() => undefined);
      await placeLd(t, alice, 'square.png', 1024, 1024);
      const { command, sent } = order(alice, 'square.png', '30x30');
      await sent;
      const messages = await settled(alice, command.id);
      expect(messages.at(-1)).toMatchObject({ status: 'finished', image: 'square.png' });
      expect(bob.received.some((m) => m.topic.includes('status-generate-image'))).toBe(false);
    } finally {
      await t.stop();
    }
  }, 60_000);
});
