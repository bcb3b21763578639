import {
  API_ROUTES,
  errorText,
  hdJobUrl,
  MAX_PAGE_SIZE,
  serverError,
  type ApiTokenScope,
  type HdJob,
} from '@tessera/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../services/errors.js';
import type { HdOrderOutcome } from '../../services/hd.js';
import { createTestStore, type TestStore } from '../../testing/fixtures.js';
import { httpTestDependencies } from '../../testing/http-app.js';
import { buildHttpApp } from '../app.js';
import type { HdOrdersApi, ScriptCommands } from './script-api.js';

// The HTTP equivalents of the messaging commands (issue 30, part 1): each route hands the
// token's owner and the parsed request to the very handler or service method MQTT uses, and
// answers its result. The handlers' rules have their own tests (messaging, services).

let store: TestStore;
let app: FastifyInstance;
const calls: { action: string; user: string; args: unknown }[] = [];
let orderOutcome: HdOrderOutcome = { result: 'queued' };
const tokens: Partial<Record<ApiTokenScope | 'all', string>> = {};

const commands: ScriptCommands = {
  'list-low-definition': (owner, command) => {
    calls.push({ action: 'list-low-definition', user: owner.username, args: command });
    return Promise.resolve({ page: command.page, size: command.size, total: 0, images: [] });
  },
  'list-high-definition': (owner, command) => {
    calls.push({ action: 'list-high-definition', user: owner.username, args: command });
    return Promise.resolve({ page: command.page, size: command.size, total: 0, images: [] });
  },
  'list-tag': (owner, command) => {
    calls.push({ action: 'list-tag', user: owner.username, args: command });
    return Promise.resolve({ page: command.page, size: command.size, total: 0, tags: [] });
  },
  'assign-tag': (owner, command) => {
    calls.push({ action: 'assign-tag', user: owner.username, args: command });
    if (command.id === 'missing')
      return Promise.reject(new ServiceError(serverError('TAG_NOT_FOUND', command.id)));
    return Promise.resolve({});
  },
  'unassign-tag': (owner, command) => {
    calls.push({ action: 'unassign-tag', user: owner.username, args: command });
    return Promise.resolve({});
  },
};

const aliceJob: HdJob = {
  id: 'order-1',
  image: 'stone.png',
  size: '30x30',
  status: 'finished',
  percent: 100,
  output_image: 'stone_30x30.png',
  created_at: '2026-06-01T09:00:00.000Z',
};

const hdOrders: HdOrdersApi = {
  orderSize: (owner, order) => {
    calls.push({ action: 'hd-order', user: owner.username, args: order });
    return Promise.resolve(orderOutcome);
  },
  job: (owner, id) =>
    Promise.resolve(owner.username === 'alice' && id === aliceJob.id ? aliceJob : undefined),
};

beforeAll(async () => {
  store = await createTestStore(['alice', 'bob']);
  app = await buildHttpApp(httpTestDependencies(store, { scriptCommands: commands, hdOrders }));
  const owner = async (username: string) => {
    const row = await store.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    return { id: row.id, username };
  };
  const alice = await owner('alice');
  for (const scope of ['read', 'generate', 'manage'] as const) {
    const request = { name: scope, scopes: [scope], expires_in_days: 30 as const };
    tokens[scope] = (await store.apiTokens.create(alice, request, { name: 'alice' })).secret;
  }
  // Bob's token may do everything: still never alice's data.
  const all = {
    name: 'all',
    scopes: ['read', 'generate', 'manage'] as const,
    expires_in_days: null,
  };
  tokens.all = (
    await store.apiTokens.create(
      await owner('bob'),
      { ...all, scopes: [...all.scopes] },
      { name: 'bob' },
    )
  ).secret;
});

afterAll(async () => {
  await app.close();
  await store.close();
});

beforeEach(() => {
  calls.length = 0;
  orderOutcome = { result: 'queued' };
});

const bearer = (scope: ApiTokenScope | 'all') => ({ authorization: `Bearer ${tokens[scope]}` });

describe('the lists', () => {
  it("answers list-low-definition's answer for the token's owner, with page, size and tags", async () => {
    const res = await app.inject({
      method: 'GET',
      url: `${API_ROUTES.ldList}?page=2&size=50&tags=stone,wood`,
      headers: bearer('read'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ page: 2, size: 50, total: 0, images: [] });
    expect(calls).toEqual([
      {
        action: 'list-low-definition',
        user: 'alice',
        args: {
          transactionid: 'http',
          user: 'alice',
          page: 2,
          size: 50,
          filters: { tags: ['stone', 'wood'] },
        },
      },
    ]);
  });

  it("pages by the spec's sizes when none is given: 100 images, 10 tags", async () => {
    await app.inject({ method: 'GET', url: API_ROUTES.hdList, headers: bearer('read') });
    await app.inject({ method: 'GET', url: API_ROUTES.tagList, headers: bearer('read') });
    expect(calls.map((call) => call.args)).toEqual([
      { transactionid: 'http', user: 'alice', page: 1, size: 100 },
      { transactionid: 'http', user: 'alice', page: 1, size: 10 },
    ]);
  });

  it('refuses a page or size out of range, or a malformed tag id, and calls nothing', async () => {
    for (const query of ['page=0', `size=${MAX_PAGE_SIZE + 1}`, 'size=x', 'tags=a/b']) {
      const res = await app.inject({
        method: 'GET',
        url: `${API_ROUTES.ldList}?${query}`,
        headers: bearer('read'),
      });
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ error: errorText('LIST_REQUEST_INVALID', MAX_PAGE_SIZE) });
    }
    expect(calls).toEqual([]);
  });

  it('needs the read scope', async () => {
    const res = await app.inject({
      method: 'GET',
      url: API_ROUTES.tagList,
      headers: bearer('manage'),
    });
    expect(res.statusCode).toBe(403);
    expect(calls).toEqual([]);
  });
});

describe('tags on images', () => {
  it('assigns and unassigns with the manage scope only', async () => {
    const payload = { id: 'stone', filename: 'tile.png' };
    for (const url of [API_ROUTES.assignTag, API_ROUTES.unassignTag]) {
      const refused = await app.inject({ method: 'POST', url, payload, headers: bearer('read') });
      expect(refused.statusCode).toBe(403);
      const done = await app.inject({ method: 'POST', url, payload, headers: bearer('manage') });
      expect(done.statusCode).toBe(200);
    }
    expect(calls.map((c) => [c.action, c.user])).toEqual([
      ['assign-tag', 'alice'],
      ['unassign-tag', 'alice'],
    ]);
  });

  it("answers the service's refusal with its text, and a malformed request with the contract's", async () => {
    const missing = await app.inject({
      method: 'POST',
      url: API_ROUTES.assignTag,
      payload: { id: 'missing', filename: 'tile.png' },
      headers: bearer('manage'),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: errorText('TAG_NOT_FOUND', 'missing') });
    const bad = await app.inject({
      method: 'POST',
      url: API_ROUTES.assignTag,
      payload: { id: 'a b', filename: '../x' },
      headers: bearer('manage'),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: errorText('TAG_REQUEST_INVALID') });
  });
});

describe('HD orders', () => {
  const order = { id: 'order-1', image: 'stone.png', size: '30x30' };

  it('queues an order with the generate scope: 202, its id', async () => {
    const res = await app.inject({
      method: 'POST',
      url: API_ROUTES.hdOrder,
      payload: order,
      headers: bearer('generate'),
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ id: 'order-1', status: 'queued' });
    expect(calls).toEqual([{ action: 'hd-order', user: 'alice', args: order }]);
    const read = await app.inject({
      method: 'POST',
      url: API_ROUTES.hdOrder,
      payload: order,
      headers: bearer('read'),
    });
    expect(read.statusCode).toBe(403);
  });

  it('answers each refusal of the service with its status and text', async () => {
    const cases: [HdOrderOutcome, number][] = [
      [{ result: 'image-not-found', error: 'gone' }, 404],
      [{ result: 'size-not-offered', error: 'size' }, 400],
      [{ result: 'over-quota', error: 'quota' }, 413],
      [{ result: 'queue-full', error: 'full' }, 429],
      [{ result: 'already-ordered', error: 'again' }, 409],
    ];
    for (const [outcome, status] of cases) {
      orderOutcome = outcome;
      const res = await app.inject({
        method: 'POST',
        url: API_ROUTES.hdOrder,
        payload: order,
        headers: bearer('generate'),
      });
      expect(res.statusCode, outcome.result).toBe(status);
      expect(res.json()).toEqual({ error: 'error' in outcome ? outcome.error : '' });
    }
  });

  it('refuses a size not in the table, or no id, before the service', async () => {
    for (const payload of [
      { ...order, size: '31x31' },
      { image: 'stone.png', size: '30x30' },
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: API_ROUTES.hdOrder,
        payload,
        headers: bearer('generate'),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: errorText('HD_ORDER_INVALID') });
    }
    expect(calls).toEqual([]);
  });

  it("tells an order's status to its owner only", async () => {
    const own = await app.inject({
      method: 'GET',
      url: hdJobUrl('order-1'),
      headers: bearer('read'),
    });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual(aliceJob);
    const other = await app.inject({
      method: 'GET',
      url: hdJobUrl('order-1'),
      headers: bearer('all'),
    });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ error: errorText('HD_JOB_UNKNOWN') });
  });
});
