import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QueueFullError } from '../jobs/queue.js';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import { PREVIEW_PARAMS } from '../testing/job-params.js';
import { createImageRepository } from './images.js';
import { createJobQueue, type StoredJobQueue } from './jobs.js';
import { createQuotaRepository, type QuotaRepository } from './quotas.js';

// The quotas' rows (migration 0025) and the queue's per-user limit, on SQLite and PostgreSQL.

let store: TestDatabase;
let quotas: QuotaRepository;
let queue: StoredJobQueue;
let ann: number;
let bob: number;

beforeEach(async () => {
  store = await freshDatabase();
  quotas = createQuotaRepository(store.db);
  queue = createJobQueue(store.db, { lease: { holder: 'process-a', ms: 30_000 } });
  ann = await addOwner(store.db, 'ann');
  bob = await addOwner(store.db, 'bob');
});
afterEach(() => store.close());

describe('the default quotas', () => {
  it('has none until an admin sets them, then keeps the last set (storage may be unlimited)', async () => {
    expect(await quotas.defaults()).toBeUndefined();
    await quotas.setDefaults({ storageBytes: 5_000_000_000_000, queuedPreviews: 4, queuedHd: 9 });
    expect(await quotas.defaults()).toEqual({
      storageBytes: 5_000_000_000_000,
      queuedPreviews: 4,
      queuedHd: 9,
    });
    await quotas.setDefaults({ storageBytes: null, queuedPreviews: 20, queuedHd: 50 });
    expect(await quotas.defaults()).toEqual({
      storageBytes: null,
      queuedPreviews: 20,
      queuedHd: 50,
    });
  });
});

describe("a user's own quotas", () => {
  it('follow the default (null) until set, per user; an unknown user has none', async () => {
    const none = { storageBytes: null, queuedPreviews: null, queuedHd: null };
    expect(await quotas.ofUser('ann')).toEqual(none);
    expect(
      await quotas.setForUser('ann', {
        storageBytes: 3_000_000_000,
        queuedPreviews: 2,
        queuedHd: null,
      }),
    ).toBe(true);
    expect(await quotas.ofUser('ann')).toEqual({
      storageBytes: 3_000_000_000,
      queuedPreviews: 2,
      queuedHd: null,
    });
    expect(await quotas.storageQuotaOf(ann)).toBe(3_000_000_000);
    expect(await quotas.storageQuotaOf(bob)).toBeNull();
    expect((await quotas.all()).get(bob)).toEqual(none);
    expect(await quotas.setForUser('nobody', none)).toBe(false);
    expect(await quotas.ofUser('nobody')).toBeUndefined();
  });

  it("counts the user's stored bytes, no one else's", async () => {
    const images = createImageRepository(store.db);
    const image = (ownerId: number, filename: string, bytes: number) =>
      images.insert({
        ownerId,
        kind: 'ld',
        filename,
        sourceImageId: null,
        width: 8,
        height: 8,
        bytes,
        metadata: {},
        createdAt: '2026-01-01T00:00:00.000Z',
      });
    expect(await quotas.storageUsed(ann)).toBe(0);
    await image(ann, 'a.png', 1_500);
    await image(ann, 'b.png', 2_500);
    await image(bob, 'c.png', 7);
    expect(await quotas.storageUsed(ann)).toBe(4_000);
  });
});

describe("the queue's live-job limit per user", () => {
  const order = (ownerId: number, id: string) => ({
    publicId: id,
    ownerId,
    kind: 'preview' as const,
    params: PREVIEW_PARAMS,
    maxAttempts: 1,
    maxLivePerOwner: 3,
    ownerQuota: 'preview' as const,
  });
  const now = new Date('2026-01-01T00:00:00.000Z');

  async function fill(ownerId: number, prefix: string): Promise<number> {
    for (let n = 1; ; n++) {
      try {
        await queue.enqueue(order(ownerId, `${prefix}-${n}`), now);
      } catch (err) {
        expect(err).toBeInstanceOf(QueueFullError);
        return (err as QueueFullError).limit;
      }
      if (n > 20) throw new Error('no limit');
    }
  }

  it("takes the user's own quota, else the admin's default, else the configured one", async () => {
    expect(await fill(ann, 'configured')).toBe(3);
    expect(await queue.list(ann, 'preview', 50)).toHaveLength(3);

    await quotas.setDefaults({ storageBytes: null, queuedPreviews: 5, queuedHd: 50 });
    expect(await fill(bob, 'default')).toBe(5);

    await quotas.setForUser('ann', { storageBytes: null, queuedPreviews: 6, queuedHd: null });
    expect(await fill(ann, 'own')).toBe(6);
    expect(await queue.list(ann, 'preview', 50)).toHaveLength(6);
  });
});
