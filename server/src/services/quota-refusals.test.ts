import { randomUUID } from 'node:crypto';
import {
  API_ROUTES,
  buildHdCommand,
  errorText,
  formatQuotaBytes,
  routeUrl,
  storageUsageSchema,
  type HdStatusMessage,
  type UserQuotas,
} from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engines/engine.js';
import { bricksPng, postPreview, previewFields, signIn } from '../testing/http.js';
import type { TestClient } from '../testing/test-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { untilAborted } from '../testing/until-aborted.js';

// The storage quota at its edge (issue 29, part 3), on the whole server: an upload with its
// preview, and an HD order, each exactly at the quota and one byte over.

/** An engine whose jobs never end until the server stops: no job adds bytes while we count. */
function stuckEngine(): Engine {
  const wait = (signal: AbortSignal) => untilAborted(signal, new Error('stopped'));
  return {
    name: 'stuck',
    generate: (_params, _progress, signal) => wait(signal),
    upscale: (_params, _progress, signal) => wait(signal),
  };
}

describe('the storage quota, refused before any work starts', () => {
  let t: TestServer;
  let base: string;
  let carol: TestClient;
  let carolCookie: string;
  let adminCookie: string;
  let reference: Buffer;
  /** What carol stores: one LD image. */
  let used: number;

  async function jobs(kind: string): Promise<number> {
    const rows = await t.db.selectFrom('jobs').select('id').where('kind', '=', kind).execute();
    return rows.length;
  }

  /** As an admin does it on the users screen: carol's own storage quota, in bytes. */
  async function setCarolsStorage(storageBytes: number) {
    const quotas: UserQuotas = { storageBytes, queuedPreviews: null, queuedHd: null };
    const res = await fetch(base + routeUrl(API_ROUTES.adminUserQuotas, { username: 'carol' }), {
      method: 'PUT',
      headers: { cookie: adminCookie, 'content-type': 'application/json' },
      body: JSON.stringify(quotas),
    });
    expect(res.status).toBe(200);
  }

  async function usage() {
    const res = await fetch(base + API_ROUTES.storageUsage, { headers: { cookie: carolCookie } });
    return storageUsageSchema.parse(await res.json());
  }

  beforeAll(async () => {
    t = await startTestServer(['carol'], 'embedded', { engine: stuckEngine() });
    base = `http://127.0.0.1:${t.server.port}`;
    reference = await bricksPng();
    carol = await t.connect('carol');
    carolCookie = await signIn(base, 'carol');
    adminCookie = await signIn(base, 'admin');
    const png = await sharp({
      create: { width: 1024, height: 1024, channels: 3, background: '#a0522d' },
    })
      .png()
      .toBuffer();
    await t.files.write('carol', 'ld', 'square.png', png);
    expect((await carol.call('refresh-low-definition')).success).toBe(true);
    used = (await usage()).usedBytes;
    expect(used).toBeGreaterThan(0);
  }, 60_000);
  afterAll(() => t?.stop());

  const post = () =>
    postPreview(base, carolCookie, {
      file: { name: 'bricks.png', data: reference },
      fields: previewFields('carol'),
    });

  it('tells the user their use and quota; none set: no quota', async () => {
    expect(await usage()).toEqual({ usedBytes: used, quotaBytes: null });
  });

  it('takes an upload that fills the quota exactly, and refuses one byte more', async () => {
    await setCarolsStorage(used + reference.length);
    expect(await usage()).toEqual({ usedBytes: used, quotaBytes: used + reference.length });
    expect((await post()).status).toBe(202);
    expect(await jobs('preview')).toBe(1);

    const quota = used + reference.length - 1;
    await setCarolsStorage(quota);
    const refused = await post();
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual({
      error: errorText('STORAGE_QUOTA_EXCEEDED', formatQuotaBytes(quota, 'en')),
    });
    // Nothing started: no job, no second reference kept.
    expect(await jobs('preview')).toBe(1);
    expect(await t.files.list('carol', 'input')).toHaveLength(1);
  });

  it('takes an HD order one byte under the quota, and refuses it at the quota', async () => {
    const statuses = () =>
      carol.received
        .filter((m) => m.topic === 'query/status-generate-image/user/carol')
        .map((m) => m.body as unknown as HdStatusMessage);
    const order = async () => {
      const command = buildHdCommand({
        id: randomUUID(),
        user: 'carol',
        image: 'square.png',
        metadata: {},
        sizeLabel: '30x30',
      });
      await carol.send(carol.commandTopic('generate-image'), command);
      return carol.waitFor(`the first word on ${command.id}`, () =>
        statuses().find((s) => s.id === command.id),
      );
    };

    await setCarolsStorage(used + 1);
    expect((await order()).status).not.toBe('error');
    expect(await jobs('hd')).toBe(1);

    await setCarolsStorage(used);
    const refused = await order();
    expect(refused).toMatchObject({
      status: 'error',
      error: errorText('STORAGE_QUOTA_EXCEEDED', formatQuotaBytes(used, 'en')),
    });
    expect(await jobs('hd')).toBe(1);
  });
});
