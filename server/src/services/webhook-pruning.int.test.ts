import { WEBHOOK_DELIVERIES_SHOWN } from '@tessera/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../store/database.js';
import { createWebhookDeliveryPruner } from '../store/webhook-pruning.js';
import { createWebhookRepository } from '../store/webhooks.js';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import { FakeTimers } from '../testing/fake-timers.js';
import { silentLogger } from '../testing/fixtures.js';
import type { WebhookEndpointRecord, WebhookRepository } from './webhook-ports.js';
import { WebhookPruning } from './webhook-pruning.js';

// The pruning of webhook deliveries (issue 30, part 3) on a real database, SQLite and PostgreSQL
// (the store tiers), its schedule on a fake clock moved on by the test (a run a day here, not an
// hour: fewer runs to wait for): settled deliveries past the retention go with their attempts,
// each endpoint's latest 50 and the pending ones stay.

const T0 = new Date('2026-03-01T10:00:00.000Z');
const DAY_MS = 24 * 3_600_000;
const RETENTION_DAYS = 30;

let store: TestDatabase;
let repo: WebhookRepository;
let owner: number;
let serial = 0;

beforeEach(async () => {
  store = await freshDatabase();
  repo = createWebhookRepository(store.db);
  owner = await addOwner(store.db, 'ann');
});
afterEach(() => store.close());

function endpoint(): Promise<WebhookEndpointRecord> {
  serial += 1;
  return repo.create(
    {
      publicId: `ep_${serial}`,
      ownerId: owner,
      scope: 'own',
      url: `http://127.0.0.1:9/${serial}`,
      events: ['hd.finished'],
      active: true,
      secret: 'whsec_c2VjcmV0',
    },
    T0,
  );
}

/** `count` deliveries to `target` made at `at`, each tried once then and left `state`. */
async function settled(
  target: WebhookEndpointRecord,
  count: number,
  at: Date,
  state: 'delivered' | 'failed' | 'pending',
): Promise<void> {
  const stamp = at.toISOString();
  // Written as the dispatcher's settle leaves them, in one statement each: a quick setup.
  const rows = await store.db
    .insertInto('webhook_deliveries')
    .values(
      Array.from({ length: count }, () => {
        serial += 1;
        return {
          endpoint_id: target.id,
          message_id: `msg_${serial}`,
          event_type: 'hd.finished',
          body: `{"n":${serial}}`,
          state,
          attempts: 1,
          next_attempt_at:
            state === 'pending' ? new Date(at.getTime() + 1000 * DAY_MS).toISOString() : null,
          window_start: stamp,
          lease_holder: null,
          lease_expires_at: null,
          created_at: stamp,
          updated_at: stamp,
        };
      }),
    )
    .returning('id')
    .execute();
  await store.db
    .insertInto('webhook_attempts')
    .values(rows.map((row) => ({ delivery_id: row.id, at: stamp, status: 200, error: null })))
    .execute();
}

const count = async (db: Db, table: 'webhook_deliveries' | 'webhook_attempts') =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('webhook pruning', () => {
  it('removes settled deliveries past the retention, keeping each list and what is pending', async () => {
    const busy = await endpoint();
    const quiet = await endpoint();
    // busy: 60 old ones and 5 recent (its 15 oldest are past its list); quiet: 3 old ones.
    await settled(busy, 40, T0, 'delivered');
    await settled(busy, 20, T0, 'failed');
    await settled(quiet, 2, T0, 'delivered');
    await settled(quiet, 1, T0, 'pending');
    await settled(busy, 5, new Date(T0.getTime() + 20 * DAY_MS), 'delivered');
    const oldest = await repo.deliveries(busy.id, 100);
    expect(oldest.length).toBe(65);

    const clock = new FakeTimers(T0);
    const pruning = new WebhookPruning(
      createWebhookDeliveryPruner(store.db),
      clock,
      RETENTION_DAYS,
      silentLogger,
      DAY_MS,
    );
    pruning.start();
    try {
      // Within the retention: nothing goes, however many runs.
      await clock.advance(RETENTION_DAYS * DAY_MS);
      expect(await count(store.db, 'webhook_deliveries')).toBe(68);

      // Just past it: busy's settled ones made at T0 go, except those its list shows (the 45
      // newest of the old ones beside the 5 recent); quiet keeps all three (a short list).
      await clock.advance(DAY_MS);
      const kept = await repo.deliveries(busy.id, 100);
      expect(kept.length).toBe(WEBHOOK_DELIVERIES_SHOWN);
      expect(kept.map((d) => d.id)).toEqual(
        oldest.slice(0, WEBHOOK_DELIVERIES_SHOWN).map((d) => d.id),
      );
      expect((await repo.deliveries(quiet.id, 100)).length).toBe(3);
      expect(await count(store.db, 'webhook_attempts')).toBe(53);

      // More old ones on quiet past the list: its settled ones go, its pending one stays.
      await settled(quiet, WEBHOOK_DELIVERIES_SHOWN, clock.now(), 'delivered');
      await clock.advance((RETENTION_DAYS + 1) * DAY_MS);
      const quietLeft = await repo.deliveries(quiet.id, 100);
      expect(quietLeft.length).toBe(WEBHOOK_DELIVERIES_SHOWN + 1);
      expect(quietLeft.at(-1)).toMatchObject({ state: 'pending' });
    } finally {
      await pruning.stop();
    }
  });

  it('removes in batches, and forgets a replaced secret past its grace', async () => {
    const target = await endpoint();
    await settled(target, WEBHOOK_DELIVERIES_SHOWN + 7, T0, 'delivered');
    const pruner = createWebhookDeliveryPruner(store.db);
    const later = new Date(T0.getTime() + DAY_MS);
    expect(await pruner.removeSettledBefore(later, WEBHOOK_DELIVERIES_SHOWN, 3)).toBe(7);
    expect(await pruner.removeSettledBefore(later, WEBHOOK_DELIVERIES_SHOWN, 3)).toBe(0);

    const until = new Date(T0.getTime() + DAY_MS);
    await repo.rotateSecret(target.id, 'whsec_bmV3', until, T0);
    const previous = () =>
      store.db
        .selectFrom('webhook_endpoints')
        .select(['secret', 'previous_secret', 'previous_secret_until'])
        .where('id', '=', target.id)
        .executeTakeFirstOrThrow();
    expect(await previous()).toEqual({
      secret: 'whsec_bmV3',
      previous_secret: 'whsec_c2VjcmV0',
      previous_secret_until: until.toISOString(),
    });
    expect(await pruner.forgetPreviousSecrets(new Date(until.getTime() - 1))).toBe(0);
    expect(await pruner.forgetPreviousSecrets(until)).toBe(1);
    expect(await previous()).toEqual({
      secret: 'whsec_bmV3',
      previous_secret: null,
      previous_secret_until: null,
    });
  });
});
