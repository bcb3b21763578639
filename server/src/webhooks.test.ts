import {
  API_ROUTES,
  routeUrl,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SECRET_GRACE_HOURS,
  webhookCreatedSchema,
  webhookDeliveriesSchema,
  webhookRotatedSchema,
  type WebhookDelivery,
} from '@tessera/contract';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeTimers } from './testing/fake-timers.js';
import { bricksPng, finishedPreview, previewFields, signIn } from './testing/http.js';
import { startTestServer, type TestServer } from './testing/test-server.js';
import { WebhookReceiver, type ReceivedWebhook } from './testing/webhook-receiver.js';

/** The value, or the test fails here naming what was missing. */
function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`no ${what}`);
  return value;
}

// Issue 30, part 3, the whole way: a user registers an endpoint over HTTP, a preview ends, and
// the delivery reaches a receiver on loopback, signed (checked with the Standard Webhooks
// library), through a receiver that answers 500, then refuses connections, then comes back. The
// dispatcher's clock is a fake one the test moves on: the retries come without waiting.

describe('webhook deliveries, the whole way', () => {
  const clock = new FakeTimers(new Date());
  const receiver = new WebhookReceiver(() => clock.now());
  let server: TestServer;
  let cookie: string;
  let endpointId: string;
  let verifier: Webhook;

  /** Checks a request's signature as a receiver would when it came, its clock the fake one. */
  function verified(request: ReceivedWebhook, by: Webhook = verifier): unknown {
    vi.useFakeTimers({ toFake: ['Date'], now: request.at });
    try {
      return by.verify(request.body, request.headers);
    } finally {
      vi.useRealTimers();
    }
  }

  async function deliveries(): Promise<WebhookDelivery[]> {
    const res = await fetch(
      `${server.server.url}${routeUrl(API_ROUTES.webhookDeliveries, { id: endpointId })}`,
      { headers: { cookie } },
    );
    return webhookDeliveriesSchema.parse(await res.json()).deliveries;
  }

  beforeAll(async () => {
    await receiver.up();
    // The fallback poll every 30 s of the fake clock: each retry falls on one.
    server = await startTestServer(['ann'], 'embedded', {
      timers: clock,
      webhookDispatch: { pollMs: 30_000 },
    });
    cookie = await signIn(server.server.url, 'ann');
    const res = await fetch(`${server.server.url}${API_ROUTES.webhooks}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: WEBHOOK_EVENT_TYPES }),
    });
    expect(res.status).toBe(201);
    const created = webhookCreatedSchema.parse(await res.json());
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    endpointId = created.endpoint.id;
    verifier = new Webhook(created.secret);
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await receiver.down();
  });

  it('is signed, retried through an outage with backoff, and received exactly once', async () => {
    receiver.failWith500 = true;
    const preview = await finishedPreview(
      server.server.url,
      cookie,
      { file: { name: 'bricks.png', data: await bricksPng() }, fields: previewFields('ann') },
      () => server.nextJobChange('ann'),
    );
    // Recorded with the job's end: pending, due now.
    expect(await deliveries()).toMatchObject([{ type: 'preview.finished', state: 'pending' }]);

    // First try: the receiver answers 500; the next try is 30 s later.
    await clock.advance(0);
    expect(receiver.received.map((r) => r.answered)).toEqual([500]);
    const first = defined((await deliveries())[0], 'delivery');
    expect(first).toMatchObject({ state: 'pending', attempts: [{ status: 500, error: 'status' }] });
    const firstTry = defined(first.attempts[0], 'first try');
    expect(Date.parse(first.nextAttemptAt ?? '') - Date.parse(firstTry.at)).toBe(30_000);

    // Second try: the receiver is down (connection refused); the next is 2 min later.
    await receiver.down();
    await clock.advance(30_000);
    const [second] = await deliveries();
    expect(second?.attempts.map((a) => [a.status, a.error])).toEqual([
      [500, 'status'],
      [null, 'refused'],
    ]);

    // Back up: the third try is delivered, and nothing is sent again however long we wait.
    receiver.failWith500 = false;
    await receiver.up();
    await clock.advance(90_000);
    expect(receiver.received.length).toBe(1);
    await clock.advance(30_000);
    expect(receiver.received.map((r) => r.answered)).toEqual([500, 200]);
    await clock.advance(3_600_000);
    expect(receiver.received.length).toBe(2);

    const delivered = defined(receiver.received[1], 'delivered request');
    expect(verified(delivered)).toEqual({
      type: 'preview.finished',
      timestamp: expect.any(String),
      data: { user: 'ann', jobId: expect.any(String), filename: preview.output_image },
    });
    // The same message on every try: a receiver can drop repeats by webhook-id.
    expect(receiver.received[0]?.headers['webhook-id']).toBe(delivered.headers['webhook-id']);
    expect([...receiver.deliveredCounts().values()]).toEqual([1]);
    const [done] = await deliveries();
    expect(done).toMatchObject({ state: 'delivered', nextAttemptAt: null });
    expect(done?.attempts.map((a) => a.status)).toEqual([500, null, 200]);
  });

  it('sends a test event at once, and a delivery again on resend', async () => {
    const before = receiver.received.length;
    const url = server.server.url;
    const test = await fetch(`${url}${routeUrl(API_ROUTES.webhookTest, { id: endpointId })}`, {
      method: 'POST',
      headers: { cookie },
    });
    expect(test.status).toBe(202);
    await clock.advance(0);
    expect(receiver.received.length).toBe(before + 1);
    expect(verified(defined(receiver.received[before], 'test request'))).toMatchObject({
      type: 'webhook.test',
      data: { endpoint: endpointId },
    });

    const latest = defined((await deliveries())[0], 'latest delivery');
    const resend = await fetch(
      `${url}${routeUrl(API_ROUTES.webhookResend, { id: endpointId, delivery: latest.id })}`,
      { method: 'POST', headers: { cookie } },
    );
    expect(resend.status).toBe(200);
    await clock.advance(0);
    expect(receiver.received.length).toBe(before + 2);
    expect(receiver.received[before + 1]?.headers['webhook-id']).toBe(
      receiver.received[before]?.headers['webhook-id'],
    );
  });

  it('signs with the old and the new secret for a day after a rotation, then the new alone', async () => {
    const url = server.server.url;
    const rotate = await fetch(
      `${url}${routeUrl(API_ROUTES.webhookRotateSecret, { id: endpointId })}`,
      { method: 'POST', headers: { cookie } },
    );
    expect(rotate.status).toBe(200);
    const rotated = webhookRotatedSchema.parse(await rotate.json());
    const graceEnd = Date.parse(rotated.endpoint.previousSecretUntil ?? '');
    expect(graceEnd - clock.now().getTime()).toBe(WEBHOOK_SECRET_GRACE_HOURS * 3_600_000);
    const [before, after] = [verifier, new Webhook(rotated.secret)];

    /** A test event, sent now; the request the receiver got. */
    async function testEvent(): Promise<ReceivedWebhook> {
      const count = receiver.received.length;
      const test = await fetch(`${url}${routeUrl(API_ROUTES.webhookTest, { id: endpointId })}`, {
        method: 'POST',
        headers: { cookie },
      });
      expect(test.status).toBe(202);
      await clock.advance(0);
      return defined(receiver.received[count], 'test request');
    }

    // During the grace, to its last minute: a receiver with either secret accepts.
    for (const wait of [0, graceEnd - clock.now().getTime() - 60_000]) {
      await clock.advance(wait);
      const during = await testEvent();
      expect(during.headers['webhook-signature']?.split(' ')).toHaveLength(2);
      expect(verified(during, before)).toMatchObject({ type: 'webhook.test' });
      expect(verified(during, after)).toMatchObject({ type: 'webhook.test' });
    }

    // Past it: the new secret alone.
    await clock.advance(60_000);
    const past = await testEvent();
    expect(past.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(verified(past, after)).toMatchObject({ type: 'webhook.test' });
    expect(() => verified(past, before)).toThrow();

    const trail = await server.db
      .selectFrom('audit_events')
      .select(['action', 'actor'])
      .where('target', '=', 'ann')
      .orderBy('id')
      .execute();
    expect(trail.filter((entry) => entry.action.startsWith('webhook-'))).toEqual([
      { action: 'webhook-created', actor: 'ann' },
      { action: 'webhook-secret-rotated', actor: 'ann' },
    ]);
  });

  it("keeps another user's endpoint out of reach", async () => {
    const res = await fetch(
      `${server.server.url}${routeUrl(API_ROUTES.webhookDeliveries, { id: 'ep_nope' })}`,
      { headers: { cookie } },
    );
    expect(res.status).toBe(404);
    const all = await fetch(`${server.server.url}${API_ROUTES.webhooks}?scope=all`, {
      headers: { cookie },
    });
    // ann is a member: the endpoints for everyone are the admins'.
    expect(all.status).toBe(403);
  });
});
