import { API_ROUTES, engineInfoResponseSchema } from '@tessera/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, type TestStore } from '../../testing/fixtures.js';
import { httpTestDependencies, sessionCookie } from '../../testing/http-app.js';
import { buildHttpApp } from '../app.js';

// GET /api/query/engine (issue 27): the engine previews are made with, to signed-in users only.

let store: TestStore;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  store = await createTestStore(['alice']);
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await store.close();
});

async function appWith(previewEngine: 'builtin' | 'comfyui') {
  const app = await buildHttpApp(httpTestDependencies(store, { previewEngine }));
  apps.push(app);
  return app;
}

describe('the preview engine route', () => {
  it('refuses a visitor who is not signed in', async () => {
    const app = await appWith('comfyui');
    const res = await app.inject({ url: API_ROUTES.engineInfo });
    expect(res.statusCode).toBe(401);
    expect(res.json()).not.toHaveProperty('preview');
  });

  it('tells a signed-in user the engine it was given', async () => {
    for (const engine of ['builtin', 'comfyui'] as const) {
      const app = await appWith(engine);
      const res = await app.inject({
        url: API_ROUTES.engineInfo,
        headers: { cookie: await sessionCookie(app, 'alice') },
      });
      expect(res.statusCode).toBe(200);
      expect(engineInfoResponseSchema.parse(res.json())).toEqual({ preview: engine });
    }
  });
});
