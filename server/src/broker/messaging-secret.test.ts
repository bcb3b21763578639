/**
 * Messaging secrets (issue 22, part 3): a reconnect wave after a server restart costs no scrypt.
 * A real server (HTTP, embedded broker, SQLite file) restarted on the same data and port; the
 * password verifier is counted, not replaced.
 */
import http from 'node:http';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { passwordOf } from '../testing/fixtures.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import type * as passwords from '../services/passwords.js';
import { verifyPassword } from '../services/passwords.js';

vi.mock('../services/passwords.js', async (importOriginal) => {
  const original = await importOriginal<typeof passwords>();
  return { ...original, verifyPassword: vi.fn(original.verifyPassword) };
});

const USERS = Array.from({ length: 50 }, (_, i) => `wave${i}`);
/** Tabs per user reconnecting at once: 100 connections in all. */
const TABS = 2;

interface Login {
  status: number;
  cookie: string;
  body: { username?: string; messagingSecret?: string };
}

/** POST /api/login from a loopback address of its own, as people on several machines. */
function login(base: string, localAddress: string, username: string, password: string) {
  return new Promise<Login>((resolve, reject) => {
    const req = http.request(
      `${base}/api/login`,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += String(chunk)));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            cookie: (res.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '',
            body: JSON.parse(text) as Login['body'],
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ username, password }));
  });
}

function logout(base: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/api/logout`,
      { method: 'POST', headers: { cookie } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * One browser tab's connection; rejects when refused. The connect timeout is generous: this
 * test shows the mechanism (no scrypt), bench/reconnect-wave.ts measures the time.
 */
function connect(url: string, localAddress: string, username: string, password: string) {
  const client = mqtt.connect(url, {
    username,
    password,
    reconnectPeriod: 0,
    connectTimeout: 60_000,
    wsOptions: { localAddress },
  });
  return new Promise<MqttClient>((resolve, reject) => {
    client.once('connect', () => resolve(client));
    client.once('error', (err) => {
      client.end(true);
      reject(err);
    });
  });
}

const addressOf = (index: number) => `127.0.1.${1 + (index % 10)}`;

describe('messaging secrets on the embedded broker', () => {
  let t: TestServer;
  const secrets = new Map<string, string>();
  const cookies = new Map<string, string>();
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    t = await startTestServer(USERS, 'embedded');
    const answers = await Promise.all(
      USERS.map((name, i) => login(t.server.url, addressOf(i), name, passwordOf(name))),
    );
    answers.forEach((answer, i) => {
      const name = USERS[i] as string;
      expect(answer.status).toBe(200);
      secrets.set(name, answer.body.messagingSecret ?? '');
      cookies.set(name, answer.cookie);
    });
  }, 180_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await t?.stop();
  });

  it('connects 100 tabs of 50 signed-in users at once right after a restart, with no scrypt (issue 22, part 3)', async () => {
    for (const secret of secrets.values()) expect(secret).toMatch(/^tessera-secret:[\w-]{43}$/);
    await t.restart();
    vi.mocked(verifyPassword).mockClear();

    const wave = USERS.flatMap((name, i) =>
      Array.from({ length: TABS }, () =>
        connect(t.brokerUrl, addressOf(i), name, secrets.get(name) ?? ''),
      ),
    );
    const settled = await Promise.allSettled(wave);
    for (const result of settled) if (result.status === 'fulfilled') clients.push(result.value);
    expect(settled.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(vi.mocked(verifyPassword)).not.toHaveBeenCalled();
  }, 120_000);

  it('still logs in with the password (scrypt), as scripts and older tabs do (issue 22, part 3)', async () => {
    vi.mocked(verifyPassword).mockClear();
    const name = USERS[0] as string;
    clients.push(await connect(t.brokerUrl, '127.0.1.20', name, passwordOf(name)));
    expect(vi.mocked(verifyPassword)).toHaveBeenCalledTimes(1);
  }, 60_000);

  it('refuses a secret for another user, and a secret whose session ended (issue 22, part 3)', async () => {
    const [first, second] = USERS as [string, string];
    await expect(
      connect(t.brokerUrl, '127.0.1.21', second, secrets.get(first) ?? ''),
    ).rejects.toThrow(/Bad username or password/);
    expect(await logout(t.server.url, cookies.get(first) ?? '')).toBe(204);
    await expect(
      connect(t.brokerUrl, '127.0.1.21', first, secrets.get(first) ?? ''),
    ).rejects.toThrow(/Bad username or password/);
  }, 60_000);
});
