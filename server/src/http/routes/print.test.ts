import { API_ROUTES, errorText, PRINT_DEFAULT_SETTINGS, type PrintFile } from '@tessera/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PrintResult } from '../../services/print-files.js';
import { createTestStore, passwordOf, type TestStore } from '../../testing/fixtures.js';
import { httpTestDependencies } from '../../testing/http-app.js';
import { strictFake } from '../../testing/strict-fake.js';
import { buildHttpApp } from '../app.js';
import { SESSION_COOKIE } from '../session.js';
import type { PrintFilesApi } from './print.js';

// The print routes (issue 26, part 1) on a stand-in service: what they take, refuse and pass on.
// The service is strict: a request the route should refuse must not reach it (so changes nothing).

let store: TestStore;
let app: FastifyInstance;
let cookie: string;
/** What the service answers the next order with. */
let nextOrder: PrintResult<PrintFile>;
const order = vi.fn((): Promise<PrintResult<PrintFile>> => Promise.resolve(nextOrder));

const ORDER = { ...PRINT_DEFAULT_SETTINGS, image: 'tile_30x30.png' };
const QUEUED: PrintFile = {
  id: 'job-1',
  image: ORDER.image,
  settings: PRINT_DEFAULT_SETTINGS,
  status: 'queued',
  percent: 0,
  width: 4337,
  height: 4337,
  createdAt: '2026-01-01T00:00:00.000Z',
};

beforeAll(async () => {
  store = await createTestStore(['alice']);
  app = await buildHttpApp(
    httpTestDependencies(store, {
      printFiles: strictFake<PrintFilesApi>('printFiles', {
        order,
        listProfiles: () =>
          Promise.resolve({ profiles: [{ id: 'srgb', name: 'sRGB', colourSpace: 'rgb' }] }),
        list: (_owner, image) =>
          Promise.resolve(
            image === ORDER.image
              ? { ok: true, value: { files: [QUEUED] } }
              : { ok: false, status: 404, error: errorText('ORDERED_IMAGE_NOT_FOUND', image) },
          ),
        estimate: () =>
          Promise.resolve({
            ok: true,
            value: { width: 4337, height: 4337, uncompressedBytes: 56_430_000, estimatedBytes: 1 },
          }),
      }),
    }),
  );
  const res = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username: 'alice', password: passwordOf('alice') },
  });
  cookie = `${SESSION_COOKIE}=${res.cookies.find((c) => c.name === SESSION_COOKIE)?.value ?? ''}`;
});

afterAll(async () => {
  await app.close();
  await store.close();
});

const post = (payload: unknown, headers: Record<string, string> = { cookie }) =>
  app.inject({ method: 'POST', url: API_ROUTES.printOrder, payload: payload as object, headers });
const get = (url: string, headers: Record<string, string> = { cookie }) =>
  app.inject({ url, headers });

describe('the print routes', () => {
  it('refuse a bad order with the contract’s text, before the service hears of it', async () => {
    const invalid = errorText('PRINT_REQUEST_INVALID');
    for (const bad of [
      {},
      { ...ORDER, image: undefined },
      { ...ORDER, image: '../elsewhere.png' },
      { ...ORDER, dpi: 71 },
      { ...ORDER, dpi: 1201 },
      { ...ORDER, dpi: 300.5 },
      { ...ORDER, bleedMm: 0.3 },
      { ...ORDER, bleedMm: 21 },
      { ...ORDER, compression: 'jpeg' },
      { ...ORDER, bitDepth: 12 },
      { ...ORDER, profile: '' },
    ]) {
      const res = await post(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json()).toEqual({ error: invalid });
    }
    const estimate = await get(`${API_ROUTES.printEstimate}?image=tile.png&dpi=abc`);
    expect([estimate.statusCode, estimate.json()]).toEqual([400, { error: invalid }]);
    const files = await get(API_ROUTES.printFiles);
    expect([files.statusCode, files.json()]).toEqual([400, { error: invalid }]);
    expect(order).not.toHaveBeenCalled();
  });

  it('answer only a signed-in user', async () => {
    for (const res of [
      await post(ORDER, {}),
      await get(API_ROUTES.printProfiles, {}),
      await get(`${API_ROUTES.printFiles}?image=${ORDER.image}`, {}),
    ]) {
      expect(res.statusCode).toBe(401);
    }
    expect(order).not.toHaveBeenCalled();
  });

  it('answer an order with 202 and the print file, and pass the service’s refusals on', async () => {
    nextOrder = { ok: true, value: QUEUED };
    const accepted = await post(ORDER);
    expect([accepted.statusCode, accepted.json()]).toEqual([202, QUEUED]);
    for (const refusal of [
      { status: 404, error: errorText('ORDERED_IMAGE_NOT_FOUND', ORDER.image) },
      { status: 400, error: errorText('PRINT_PROFILE_UNKNOWN', 'x.icc') },
      { status: 429, error: errorText('PRINT_QUEUE_FULL', 3) },
      { status: 409, error: errorText('PRINT_ALREADY_ORDERED') },
    ] as const) {
      nextOrder = { ok: false, ...refusal };
      const res = await post(ORDER);
      expect([res.statusCode, res.json()]).toEqual([refusal.status, { error: refusal.error }]);
    }
  });

  it('list the profiles, an image’s files and the estimate, never cached', async () => {
    const profiles = await get(API_ROUTES.printProfiles);
    expect(profiles.json()).toEqual({
      profiles: [{ id: 'srgb', name: 'sRGB', colourSpace: 'rgb' }],
    });
    const files = await get(`${API_ROUTES.printFiles}?image=${ORDER.image}`);
    expect(files.json()).toEqual({ files: [QUEUED] });
    expect(files.headers['cache-control']).toBe('no-store');
    const missing = await get(`${API_ROUTES.printFiles}?image=other.png`);
    expect(missing.statusCode).toBe(404);
    const query = new URLSearchParams({
      image: ORDER.image,
      dpi: '360',
      bleedMm: '3',
      compression: 'lzw',
      bitDepth: '8',
      profile: 'srgb',
    });
    const estimate = await get(`${API_ROUTES.printEstimate}?${query}`);
    expect(estimate.statusCode).toBe(200);
    expect(estimate.json()).toMatchObject({ width: 4337, height: 4337 });
  });
});
