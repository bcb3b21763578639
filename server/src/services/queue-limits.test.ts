import { randomUUID } from 'node:crypto';
import { buildHdCommand, errorText, hdSizesForImage } from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engines/engine.js';
import { bricksPng, postPreview, previewFields, signIn } from '../testing/http.js';
import type { TestClient } from '../testing/test-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { untilAborted } from '../testing/until-aborted.js';

/** An engine whose jobs never end until the server stops: every job it takes stays live. */
function stuckEngine(): Engine {
  const wait = (signal: AbortSignal) => untilAborted(signal, new Error('stopped'));
  return {
    name: 'stuck',
    generate: (_params, _progress, signal) => wait(signal),
    upscale: (_params, _progress, signal) => wait(signal),
  };
}

async function liveJobs(t: TestServer, username: string, kind: string): Promise<number> {
  const rows = await t.db
    .selectFrom('jobs')
    .innerJoin('users', 'users.id', 'jobs.owner_id')
    .select('jobs.id')
    .where('users.username', '=', username)
    .where('jobs.kind', '=', kind)
    .where('jobs.status', 'in', ['queued', 'in_progress'])
    .execute();
  return rows.length;
}

describe('per-user caps on waiting jobs', () => {
  let t: TestServer;
  let base: string;
  let reference: Buffer;

  beforeAll(async () => {
    t = await startTestServer(
      ['carol', 'dave', 'erin'],
      'embedded',
      { engine: stuckEngine() },
      {},
      { maxQueuedPerUser: { preview: 2, hd: 2 } },
    );
    base = `http://127.0.0.1:${t.server.port}`;
    reference = await bricksPng();
  }, 60_000);
  afterAll(() => t?.stop());

  const post = (cookie: string, user: string) =>
    postPreview(base, cookie, {
      file: { name: 'bricks.png', data: reference },
      fields: previewFields(user),
    });

  it('refuses a preview past the cap with a clear text, and leaves other users alone', async () => {
    const carol = await signIn(base, 'carol');
    expect((await post(carol, 'carol')).status).toBe(202);
    expect((await post(carol, 'carol')).status).toBe(202);
    const third = await post(carol, 'carol');
    expect(third.status).toBe(429);
    expect(await third.json()).toEqual({ error: errorText('PREVIEW_QUEUE_FULL', 2) });
    expect(await liveJobs(t, 'carol', 'preview')).toBe(2);

    const dave = await signIn(base, 'dave');
    expect((await post(dave, 'dave')).status).toBe(202);
  });

  it('counts parallel posts exactly: 12 at once queue 2', async () => {
    const erin = await signIn(base, 'erin');
    const answers = await Promise.all(Array.from({ length: 12 }, () => post(erin, 'erin')));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 202)).toHaveLength(2);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(await liveJobs(t, 'erin', 'preview')).toBe(2);
    // Twelve posts of the same file stored it once (issue 22, part 13).
    expect(await t.files.list('erin', 'input')).toHaveLength(1);
  });

  it('answers an HD order past the cap with an error status naming the limit', async () => {
    const dave: TestClient = await t.connect('dave');
    const square = await sharp({
      create: { width: 1024, height: 1024, channels: 3, background: '#a0522d' },
    })
      .png()
      .toBuffer();
    await t.files.write('dave', 'ld', 'square.png', square);
    expect((await dave.call('refresh-low-definition')).success).toBe(true);
    const sizes = hdSizesForImage(1024, 1024).slice(0, 3);
    expect(sizes).toHaveLength(3);
    const ids: string[] = [];
    for (const sizeLabel of sizes) {
      const command = buildHdCommand({
        id: randomUUID(),
        user: 'dave',
        image: 'square.png',
        metadata: {},
        sizeLabel,
      });
      ids.push(command.id);
      await dave.send(dave.commandTopic('generate-image'), command);
      // In order: the third is the one past the cap (a status comes once the order is handled).
      await dave.firstHdStatus(command.id);
    }
    // The loop awaited the third order's first status message already.
    expect(await dave.firstHdStatus(ids[2] ?? '')).toMatchObject({
      status: 'error',
      error: errorText('HD_QUEUE_FULL', 2),
    });
    expect(await liveJobs(t, 'dave', 'hd')).toBe(2);
  });
});
