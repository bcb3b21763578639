import type { WebhookEventType } from '@tessera/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobEvents } from '../services/webhook-events.js';
import type { WebhookEndpointRecord, WebhookRepository } from '../services/webhook-ports.js';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import { HD_PARAMS, PREVIEW_PARAMS } from '../testing/job-params.js';
import type { Db } from './database.js';
import { createJobQueue } from './jobs.js';
import { createWebhookDeliveryQueue, createWebhookRepository } from './webhooks.js';

// Webhooks on a real database (issue 30, part 3), SQLite and PostgreSQL: the outbox written with
// a job's end, each delivery claimed by one process only, leases that run out, retries and resend.

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

/** The value, or the test fails here naming what was missing. */
function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`no ${what}`);
  return value;
}

let store: TestDatabase;
let repo: WebhookRepository;
let ann: number;
let bob: number;

beforeEach(async () => {
  store = await freshDatabase();
  repo = createWebhookRepository(store.db);
  ann = await addOwner(store.db, 'ann');
  bob = await addOwner(store.db, 'bob');
});
afterEach(() => store.close());

let serial = 0;
function endpoint(
  ownerId: number,
  events: WebhookEventType[],
  more: { scope?: 'own' | 'all'; active?: boolean } = {},
): Promise<WebhookEndpointRecord> {
  serial += 1;
  return repo.create(
    {
      publicId: `ep_${serial}`,
      ownerId,
      scope: more.scope ?? 'own',
      url: `http://127.0.0.1:9/${serial}`,
      events,
      active: more.active ?? true,
      secret: 'whsec_c2VjcmV0',
    },
    T0,
  );
}

/** Runs one job of ann's to its end through the queue that records the events. */
async function endJob(db: Db, kind: 'preview' | 'hd', outcome: 'finish' | 'fail', id: string) {
  const queue = createJobQueue(db, { lease: { holder: 'runner', ms: 60_000 }, events: jobEvents });
  const owner = { id: ann, username: 'ann' };
  const params = kind === 'preview' ? { ...PREVIEW_PARAMS, owner } : { ...HD_PARAMS, owner };
  await queue.enqueue({ publicId: id, ownerId: ann, kind, params, maxAttempts: 1 } as never, T0);
  const job = await queue.claim(kind, T0);
  if (!job) throw new Error('nothing to claim');
  if (outcome === 'finish') await queue.finish(job.id, `${id}.png`, at(1000));
  else await queue.fail(job.id, 'The image could not be made', at(1000));
}

const deliveryRows = (db: Db) =>
  db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .select(['webhook_endpoints.public_id as endpoint', 'event_type', 'message_id', 'body'])
    .orderBy('webhook_deliveries.id')
    .execute();

describe('the outbox', () => {
  it("records a job's end for the owner's endpoints that asked, and those for everyone", async () => {
    const annPreviews = await endpoint(ann, ['preview.finished']);
    await endpoint(ann, ['hd.finished']);
    await endpoint(ann, ['preview.finished'], { active: false });
    await endpoint(bob, ['preview.finished']);
    const everyone = await endpoint(bob, ['preview.finished', 'preview.failed'], { scope: 'all' });

    await endJob(store.db, 'preview', 'finish', 'job-1');
    const rows = await deliveryRows(store.db);
    expect(rows.map((row) => row.endpoint)).toEqual([annPreviews.publicId, everyone.publicId]);
    expect(new Set(rows.map((row) => row.message_id))).toEqual(
      new Set(['msg_preview.finished_job-1']),
    );
    expect(JSON.parse(defined(rows[0], 'delivery').body)).toEqual({
      type: 'preview.finished',
      timestamp: at(1000).toISOString(),
      data: { user: 'ann', jobId: 'job-1', filename: 'job-1.png' },
    });

    await endJob(store.db, 'hd', 'fail', 'job-2');
    expect((await deliveryRows(store.db)).length).toBe(2);
  });

  it('writes nothing when the end is not saved (the lease was lost)', async () => {
    await endpoint(ann, ['preview.finished']);
    const queue = createJobQueue(store.db, { lease: { holder: 'a', ms: 1000 }, events: jobEvents });
    const other = createJobQueue(store.db, { lease: { holder: 'b', ms: 1000 }, events: jobEvents });
    const owner = { id: ann, username: 'ann' };
    await queue.enqueue(
      {
        publicId: 'j',
        ownerId: ann,
        kind: 'preview',
        params: { ...PREVIEW_PARAMS, owner },
        maxAttempts: 3,
      },
      T0,
    );
    const job = await queue.claim('preview', T0);
    await other.expireLeases(at(5000));
    expect(await queue.finish(defined(job, 'job').id, 'j.png', at(6000))).toBeUndefined();
    expect(await deliveryRows(store.db)).toEqual([]);
  });
});

/** `count` deliveries due now to one endpoint. */
async function dueDeliveries(count: number) {
  const target = await endpoint(ann, ['hd.finished']);
  for (let i = 0; i < count; i += 1) {
    await repo.enqueueOne(
      target.id,
      { type: 'hd.finished', ownerId: ann, messageId: `msg_${i}`, body: `{"n":${i}}` },
      T0,
    );
  }
  return target;
}

describe('claims', () => {
  it('give each delivery to one of two processes claiming at once', async () => {
    await dueDeliveries(30);
    const otherDb = await store.openAnother();
    try {
      const a = createWebhookDeliveryQueue(store.db);
      const b = createWebhookDeliveryQueue(otherDb);
      const taken: number[] = [];
      for (;;) {
        const [fromA, fromB] = await Promise.all([
          a.claim('a', 60_000, 4, T0),
          b.claim('b', 60_000, 4, T0),
        ]);
        if (fromA.length + fromB.length === 0) break;
        taken.push(...fromA.map((d) => d.id), ...fromB.map((d) => d.id));
      }
      expect(taken.length).toBe(30);
      expect(new Set(taken).size).toBe(30);
    } finally {
      await otherDb.destroy();
    }
  });

  it('take a delivery back when its lease ran out, and only its new holder saves a try', async () => {
    await dueDeliveries(1);
    const queue = createWebhookDeliveryQueue(store.db);
    const held = defined((await queue.claim('a', 10_000, 5, T0))[0], 'claim');
    expect(held).toMatchObject({ messageId: 'msg_0', url: expect.stringContaining('127.0.0.1') });
    expect(await queue.claim('b', 10_000, 5, at(9_999))).toEqual([]);
    const [again] = await queue.claim('b', 10_000, 5, at(10_001));
    expect(again?.id).toBe(held.id);

    const tried = { at: at(10_002).toISOString(), status: 200, error: null };
    expect(await queue.settle(held.id, 'a', tried, { state: 'delivered' }, at(10_003))).toBe(false);
    expect(await queue.settle(held.id, 'b', tried, { state: 'delivered' }, at(10_003))).toBe(true);
    const [listed] = await repo.deliveries(await firstEndpoint(), 10);
    expect(listed).toMatchObject({ state: 'delivered', attempts: [{ status: 200, error: null }] });
  });

  it('wait for a retry time, hold a paused endpoint back, and go again on resend', async () => {
    const target = await dueDeliveries(1);
    const queue = createWebhookDeliveryQueue(store.db);
    const held = defined((await queue.claim('a', 10_000, 5, T0))[0], 'claim');
    const refused = { at: T0.toISOString(), status: null, error: 'refused' as const };
    await queue.settle(held.id, 'a', refused, { state: 'pending', nextAttemptAt: at(30_000) }, T0);
    expect(await queue.claim('a', 10_000, 5, at(29_999))).toEqual([]);

    await repo.update(target.id, { active: false }, T0);
    expect(await queue.claim('a', 10_000, 5, at(30_000))).toEqual([]);
    await repo.update(target.id, { active: true }, T0);
    const retry = defined((await queue.claim('a', 10_000, 5, at(30_000)))[0], 'retry');
    expect(retry).toMatchObject({ id: held.id, attempts: 1 });
    await queue.settle(retry.id, 'a', refused, { state: 'failed' }, at(30_001));
    expect(await queue.claim('a', 10_000, 5, at(90_000_000))).toEqual([]);

    const resent = await repo.resend(target.id, held.id, at(40_000));
    expect(resent).toMatchObject({ state: 'pending', nextAttemptAt: null });
    const [third] = await queue.claim('a', 10_000, 5, at(40_000));
    expect(third).toMatchObject({ attempts: 2, windowStart: at(40_000).toISOString() });
    // Not this endpoint's delivery: refused.
    const elsewhere = await endpoint(bob, ['hd.finished']);
    expect(await repo.resend(elsewhere.id, held.id, at(41_000))).toBeUndefined();
  });

  it('carry the replaced secret and its end after a rotation, a newer rotation dropping it', async () => {
    const target = await dueDeliveries(1);
    const until = at(86_400_000);
    const rotated = await repo.rotateSecret(target.id, 'whsec_bmV3', until, at(1000));
    expect(rotated).toMatchObject({
      secret: 'whsec_bmV3',
      previousSecretUntil: until.toISOString(),
    });
    const queue = createWebhookDeliveryQueue(store.db);
    const [held] = await queue.claim('a', 10_000, 5, at(2000));
    expect(held).toMatchObject({
      secret: 'whsec_bmV3',
      previousSecret: { secret: 'whsec_c2VjcmV0', until: until.toISOString() },
    });
    // Rotated again within the grace: the first secret is gone for good.
    await repo.rotateSecret(target.id, 'whsec_bmV3ZXI=', at(90_000_000), at(3000));
    const [again] = await queue.claim('b', 10_000, 5, at(20_000));
    expect(again).toMatchObject({
      secret: 'whsec_bmV3ZXI=',
      previousSecret: { secret: 'whsec_bmV3', until: at(90_000_000).toISOString() },
    });
  });

  it('go with their endpoint when it is removed', async () => {
    const target = await dueDeliveries(2);
    expect(await repo.remove(target.id)).toBe(true);
    expect(await createWebhookDeliveryQueue(store.db).claim('a', 1000, 5, T0)).toEqual([]);
    expect(await store.db.selectFrom('webhook_deliveries').selectAll().execute()).toEqual([]);
  });
});

async function firstEndpoint(): Promise<number> {
  const row = await store.db
    .selectFrom('webhook_endpoints')
    .select('id')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
