import { inputsResponseSchema } from '@tessera/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bricksPng,
  postPreview,
  previewFields,
  signIn,
  waitForPreview,
} from '../../testing/http.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';

let t: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  t = await startTestServer(['alice', 'bob'], 'embedded');
  [alice, bob] = await Promise.all([signIn(t.server.url, 'alice'), signIn(t.server.url, 'bob')]);
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

const get = (path: string, cookie?: string) =>
  fetch(`${t.server.url}${path}`, { headers: cookie ? { cookie } : {} });

describe('the references library (GET /api/query/inputs)', () => {
  it('lists each uploaded reference with the LD images made from it, to its owner only', async () => {
    const posted = await postPreview(t.server.url, alice, {
      file: { name: 'Ladrillo Viejo.png', data: await bricksPng(128, 128) },
      fields: previewFields('alice', { image: 'Ladrillo Viejo.png' }),
    });
    expect(posted.status).toBe(202);
    const done = await waitForPreview(t.server.url, alice);
    expect(done.status).toBe('finished');

    const res = await get('/api/query/inputs', alice);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { inputs } = inputsResponseSchema.parse(await res.json());
    expect(inputs).toHaveLength(1);
    expect(inputs[0]?.filename).toMatch(/^Ladrillo-Viejo-[0-9a-f]{8}\.png$/);
    expect(inputs[0]?.images).toEqual([done.output_image]);
    const served = await get(`/api/images/input/${inputs[0]?.filename ?? ''}`, alice);
    expect(served.status).toBe(200);

    expect(await (await get('/api/query/inputs', bob)).json()).toEqual({ inputs: [] });
    expect((await get(`/api/images/input/${inputs[0]?.filename ?? ''}`, bob)).status).toBe(404);
  }, 60_000);

  it('answers 401 without a session', async () => {
    expect((await get('/api/query/inputs')).status).toBe(401);
    expect((await get('/api/query/hd-jobs')).status).toBe(401);
  });
});

describe('the HD queue (GET /api/query/hd-jobs, POST /api/command/cancel-hd-job)', () => {
  const cancel = (body: string, cookie = alice) =>
    fetch(`${t.server.url}/api/command/cancel-hd-job`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body,
    });

  it('is empty before any order', async () => {
    expect(await (await get('/api/query/hd-jobs', bob)).json()).toEqual({ jobs: [] });
  });

  it('refuses a cancel without a usable id, and an unknown id, changing nothing', async () => {
    expect((await cancel('{}')).status).toBe(400);
    expect((await cancel('not json')).status).toBe(400);
    expect((await cancel(JSON.stringify({ id: 'x'.repeat(129) }))).status).toBe(400);
    expect((await cancel(JSON.stringify({ id: { $ne: null } }))).status).toBe(400);
    const unknown = await cancel(JSON.stringify({ id: 'no-such-job' }));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'No such job' });
  });
});
