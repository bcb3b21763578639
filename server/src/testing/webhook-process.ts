import { newLeaseHolder } from '../jobs/lease.js';
import { createWebhookSender } from '../outbound/webhook-sender.js';
import { systemTimers } from '../runtime/timers.js';
import { WebhookDispatcher } from '../services/webhook-dispatcher.js';
import { openDatabase } from '../store/database.js';
import { createWebhookDeliveryQueue } from '../store/webhooks.js';
import { silentLogger } from './fixtures.js';

/**
 * Another process sending webhook deliveries, for webhook-processes.test.ts (run with tsx): a
 * dispatcher over the database of DATABASE_URL (PostgreSQL) or DATA_DIR (SQLite), polling every
 * 20 ms; prints `ready`, and stops at SIGTERM once its tries under way are saved.
 */
const url = process.env.DATABASE_URL;
const db = await openDatabase({
  dataDir: process.env.DATA_DIR ?? '.',
  ...(url && { url, poolSize: 2 }),
});
const dispatcher = new WebhookDispatcher(
  createWebhookDeliveryQueue(db),
  createWebhookSender(),
  systemTimers,
  silentLogger,
  { holder: newLeaseHolder(), leaseMs: 60_000, pollMs: 20, batch: 3 },
);
dispatcher.start();
// The dispatcher's timers do not hold a process open (on SQLite nothing else does): this does.
const alive = setInterval(() => undefined, 60_000);
console.log('ready');
process.on('SIGTERM', () => {
  clearInterval(alive);
  void dispatcher
    .stop()
    .then(() => db.destroy())
    .then(() => process.exit(0));
});
