import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { openDatabase, type Db } from './store/database.js';
import { createWebhookRepository } from './store/webhooks.js';
import { addOwner } from './testing/database.js';
import { tempDir } from './testing/fixtures.js';
import {
  createScratchPostgres,
  postgresMissing,
  type ScratchPostgres,
} from './testing/postgres.js';
import { captureOutput, finished, spawnEntry } from './testing/processes.js';
import { WebhookReceiver } from './testing/webhook-receiver.js';

// Issue 30, part 3: two processes send the deliveries of one database, each claiming under a
// lease; the receiver on loopback gets every message exactly once. On a SQLite file (the two
// share it as a server and `npm run users` do) and, when there is one, on PostgreSQL.

const DELIVERIES = 40;
const missingPostgres = await postgresMissing();

async function twoProcessesDeliver(db: Db, env: NodeJS.ProcessEnv, children: ChildProcess[]) {
  const receiver = new WebhookReceiver();
  await receiver.up();
  try {
    const repo = createWebhookRepository(db);
    const owner = await addOwner(db, 'ann');
    const endpoint = await repo.create(
      {
        publicId: 'ep_shared',
        ownerId: owner,
        scope: 'own',
        url: receiver.url,
        events: ['hd.finished'],
        active: true,
        secret: 'whsec_c2VjcmV0LWZvci10aGUtdGVzdA==',
      },
      new Date(),
    );
    for (let i = 0; i < DELIVERIES; i += 1) {
      await repo.enqueueOne(
        endpoint.id,
        { type: 'hd.finished', ownerId: owner, messageId: `msg_${i}`, body: `{"n":${i}}` },
        new Date(),
      );
    }
    const ready: Promise<void>[] = [];
    for (const name of ['a', 'b']) {
      const child = spawnEntry('testing/webhook-process.ts', [], { ...env, INSTANCE_NAME: name });
      children.push(child);
      ready.push(captureOutput(child).printedNext(/ready/));
    }
    await Promise.all(ready);
    await receiver.until(DELIVERIES);
    // Every delivery saved as delivered: nothing is left for a second try.
    await expect
      .poll(async () =>
        (await repo.deliveries(endpoint.id, DELIVERIES)).every((d) => d.state === 'delivered'),
      )
      .toBe(true);
    const counts = receiver.deliveredCounts();
    expect(counts.size).toBe(DELIVERIES);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(receiver.received.length).toBe(DELIVERIES);
  } finally {
    await receiver.down();
  }
}

describe('deliveries sent by two processes', () => {
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) {
      child.kill('SIGTERM');
      await finished(child);
    }
  });

  it('reach the receiver once each, on a SQLite file', async () => {
    const data = tempDir('tessera-webhooks-');
    const db = await openDatabase({ dataDir: data.dir });
    try {
      await twoProcessesDeliver(db, { DATA_DIR: data.dir }, children);
    } finally {
      await db.destroy();
      for (const child of children.splice(0)) {
        child.kill('SIGTERM');
        await finished(child);
      }
      data.remove();
    }
  });

  describe.skipIf(missingPostgres)('on PostgreSQL', () => {
    let database: ScratchPostgres | undefined;
    afterAll(async () => {
      await database?.drop();
    });

    it('reach the receiver once each', async () => {
      database = await createScratchPostgres();
      const db = await openDatabase({ dataDir: '.', url: database.url, poolSize: 4 });
      try {
        await twoProcessesDeliver(db, { DATABASE_URL: database.url }, children);
      } finally {
        for (const child of children.splice(0)) {
          child.kill('SIGTERM');
          await finished(child);
        }
        await db.destroy();
      }
    });
  });
});
