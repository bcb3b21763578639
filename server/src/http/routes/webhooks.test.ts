import { API_ROUTES, routeUrl, WEBHOOK_TEXTS, webhookCreatedSchema } from '@tessera/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookService } from '../../services/webhooks.js';
import { createWebhookRepository } from '../../store/webhooks.js';
import { createTestStore, passwordOf, type TestStore } from '../../testing/fixtures.js';
import { httpTestDependencies } from '../../testing/http-app.js';
import { buildHttpApp } from '../app.js';
import { SESSION_COOKIE } from '../session.js';

// The webhook routes (issue 30, part 3) on a real store: who may manage which endpoint, the
// secret shown once, refusals with the contract's texts.

let store: TestStore;
let app: FastifyInstance;
const cookies: Record<string, string> = {};
let woken = 0;

beforeAll(async () => {
  store = await createTestStore(['boss', 'ann', 'bob']);
  const webhooks = new WebhookService(createWebhookRepository(store.db), () => (woken += 1));
  app = await buildHttpApp(httpTestDependencies(store, { webhooks }));
  for (const username of ['boss', 'ann', 'bob']) {
    const res = await app.inject({
      method: 'POST',
      url: API_ROUTES.login,
      payload: { username, password: passwordOf(username) },
    });
    const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE);
    cookies[username] = `${SESSION_COOKIE}=${cookie?.value ?? ''}`;
  }
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

  it('need a session', async () => {
    expect((await app.inject({ url: API_ROUTES.webhooks })).statusCode).toBe(401);
  });
});
