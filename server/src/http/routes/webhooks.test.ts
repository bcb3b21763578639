import {
  API_ROUTES,
  auditPageSchema,
  routeUrl,
  WEBHOOK_TEXTS,
  webhookCreatedSchema,
  webhookListSchema,
  webhookRotatedSchema,
} from '@tessera/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../services/audit.js';
import { WebhookService } from '../../services/webhooks.js';
import { createAuditRepository } from '../../store/audit.js';
import { createWebhookRepository } from '../../store/webhooks.js';
import { createTestStore, silentLogger, type TestStore } from '../../testing/fixtures.js';
import { httpTestDependencies, sessionCookie } from '../../testing/http-app.js';
import { buildHttpApp } from '../app.js';

// The webhook routes (issue 30, part 3) on a real store: who may manage which endpoint, the
// secret shown once (at creation and rotation), refusals with the contract's texts, the audit trail.

let store: TestStore;
let app: FastifyInstance;
const cookies: Record<string, string> = {};
let woken = 0;
let audit: AuditLog;
/** The service's clock: a rotation's grace is counted from it. */
const NOW = new Date('2026-06-01T09:00:00.000Z');

beforeAll(async () => {
  store = await createTestStore(['boss', 'ann', 'bob']);
  audit = new AuditLog(createAuditRepository(store.db), silentLogger);
  const webhooks = new WebhookService(createWebhookRepository(store.db), {
    wake: () => (woken += 1),
    now: () => NOW,
    audit,
  });
  app = await buildHttpApp(httpTestDependencies(store, { webhooks }));
  for (const username of ['boss', 'ann', 'bob'])
    cookies[username] = await sessionCookie(app, username);
});
afterAll(async () => {
  await app.close();
  await store.close();
});

const as = (username: string) => ({ cookie: cookies[username] ?? '' });

async function create(username: string, payload: object) {
  return app.inject({ method: 'POST', url: API_ROUTES.webhooks, headers: as(username), payload });
}

describe('webhook routes', () => {
  it('create an endpoint, show its secret once, and keep it from other members', async () => {
    const res = await create('ann', {
      url: 'https://hooks.example.test/a',
      events: ['hd.finished'],
    });
    expect(res.statusCode).toBe(201);
    const { endpoint, secret } = webhookCreatedSchema.parse(res.json());
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint).toMatchObject({ owner: 'ann', scope: 'own', active: true });

    const listed = await app.inject({ url: API_ROUTES.webhooks, headers: as('ann') });
    expect(listed.json()).toEqual({ endpoints: [endpoint] });
    expect(JSON.stringify(listed.json())).not.toContain(secret);
    expect((await app.inject({ url: API_ROUTES.webhooks, headers: as('bob') })).json()).toEqual({
      endpoints: [],
    });

    const deliveries = routeUrl(API_ROUTES.webhookDeliveries, { id: endpoint.id });
    expect((await app.inject({ url: deliveries, headers: as('bob') })).statusCode).toBe(404);
    const removeByBob = await app.inject({
      method: 'POST',
      url: routeUrl(API_ROUTES.webhookRemove, { id: endpoint.id }),
      headers: as('bob'),
    });
    expect(removeByBob.statusCode).toBe(404);
    expect(removeByBob.json()).toEqual({ error: WEBHOOK_TEXTS.errors.notFound });

    const paused = await app.inject({
      method: 'PUT',
      url: routeUrl(API_ROUTES.webhook, { id: endpoint.id }),
      headers: as('ann'),
      payload: { active: false },
    });
    expect(paused.json()).toMatchObject({ active: false });

    const test = await app.inject({
      method: 'POST',
      url: routeUrl(API_ROUTES.webhookTest, { id: endpoint.id }),
      headers: as('ann'),
    });
    expect(test.statusCode).toBe(202);
    expect(test.json()).toMatchObject({ type: 'webhook.test', state: 'pending', attempts: [] });
    expect(woken).toBeGreaterThan(0);
  });

  it('refuse a bad URL or no events with the contract text, changing nothing', async () => {
    for (const payload of [
      { url: 'ftp://hooks.example.test/', events: ['hd.finished'] },
      { url: 'https://u:p@hooks.example.test/', events: ['hd.finished'] },
      { url: 'https://hooks.example.test/', events: [] },
    ]) {
      const res = await create('bob', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: WEBHOOK_TEXTS.errors.invalid });
    }
    expect((await app.inject({ url: API_ROUTES.webhooks, headers: as('bob') })).json()).toEqual({
      endpoints: [],
    });
  });

  it('keep endpoints for everyone to admins', async () => {
    const refused = await create('ann', {
      url: 'https://hooks.example.test/all',
      events: ['preview.finished'],
      scope: 'all',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: WEBHOOK_TEXTS.errors.adminOnly });
    expect(
      (await app.inject({ url: `${API_ROUTES.webhooks}?scope=all`, headers: as('ann') }))
        .statusCode,
    ).toBe(403);

    const made = await create('boss', {
      url: 'https://hooks.example.test/all',
      events: ['preview.finished'],
      scope: 'all',
    });
    expect(made.statusCode).toBe(201);
    const all = await app.inject({ url: `${API_ROUTES.webhooks}?scope=all`, headers: as('boss') });
    expect(all.json()).toMatchObject({ endpoints: [{ scope: 'all', owner: 'boss' }] });
  });

  it('rotate a secret for its owner (or an admin, for everyone), showing the new one once', async () => {
    const made = webhookCreatedSchema.parse(
      (await create('ann', { url: 'https://hooks.example.test/r', events: ['hd.failed'] })).json(),
    );
    const rotateUrl = routeUrl(API_ROUTES.webhookRotateSecret, { id: made.endpoint.id });
    const byBob = await app.inject({ method: 'POST', url: rotateUrl, headers: as('bob') });
    expect(byBob.statusCode).toBe(404);
    expect(byBob.json()).toEqual({ error: WEBHOOK_TEXTS.errors.notFound });

    const res = await app.inject({ method: 'POST', url: rotateUrl, headers: as('ann') });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const rotated = webhookRotatedSchema.parse(res.json());
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(made.secret);
    const until = new Date(NOW.getTime() + 24 * 3_600_000).toISOString();
    expect(rotated.endpoint).toEqual({ ...made.endpoint, previousSecretUntil: until });
    const listed = await app.inject({ url: API_ROUTES.webhooks, headers: as('ann') });
    expect(webhookListSchema.parse(listed.json()).endpoints).toContainEqual(rotated.endpoint);
    expect(JSON.stringify(listed.json())).not.toContain(rotated.secret);

    const forAll = webhookCreatedSchema.parse(
      (
        await create('boss', {
          url: 'https://hooks.example.test/r-all',
          events: ['hd.failed'],
          scope: 'all',
        })
      ).json(),
    );
    const allUrl = routeUrl(API_ROUTES.webhookRotateSecret, { id: forAll.endpoint.id });
    expect((await app.inject({ method: 'POST', url: allUrl, headers: as('ann') })).statusCode).toBe(
      404,
    );
    expect(
      (await app.inject({ method: 'POST', url: allUrl, headers: as('boss') })).statusCode,
    ).toBe(200);
  });

  it("record every endpoint's change in the audit trail, never its secret", async () => {
    const made = webhookCreatedSchema.parse(
      (
        await create('bob', { url: 'https://hooks.example.test/b', events: ['hd.finished'] })
      ).json(),
    );
    const id = made.endpoint.id;
    await app.inject({
      method: 'PUT',
      url: routeUrl(API_ROUTES.webhook, { id }),
      headers: as('bob'),
      payload: { active: false },
    });
    const rotated = await app.inject({
      method: 'POST',
      url: routeUrl(API_ROUTES.webhookRotateSecret, { id }),
      headers: as('bob'),
    });
    await app.inject({
      method: 'POST',
      url: routeUrl(API_ROUTES.webhookRemove, { id }),
      headers: as('bob'),
    });

    const trail = auditPageSchema.parse(await audit.list({ target: 'bob' }));
    const mine = trail.entries.filter((entry) => entry.details.id === id).reverse();
    expect(mine.map((entry) => entry.action)).toEqual([
      'webhook-created',
      'webhook-changed',
      'webhook-secret-rotated',
      'webhook-removed',
    ]);
    for (const entry of mine) {
      expect(entry).toMatchObject({ actor: 'bob', target: 'bob', address: expect.any(String) });
      expect(entry.details).toMatchObject({
        id,
        scope: 'own',
        url: 'https://hooks.example.test/b',
      });
    }
    expect(mine[1]?.details.changes).toEqual({ active: { from: true, to: false } });
    const text = JSON.stringify(trail);
    expect(text).not.toContain(made.secret);
    expect(text).not.toContain(webhookRotatedSchema.parse(rotated.json()).secret);
  });

  it('need a session', async () => {
    expect((await app.inject({ url: API_ROUTES.webhooks })).statusCode).toBe(401);
  });
});
