import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../services/audit.js';
import { AuthService } from '../services/auth.js';
import { MemoryLoginGuard } from '../services/login-guard.js';
import { createAuditRepository } from '../store/audit.js';
import { createSessionRepository } from '../store/sessions.js';
import { createUserRepository } from '../store/users.js';
import { createTestStore, passwordOf, silentLogger, type TestStore } from '../testing/fixtures.js';
import { mqttClients } from '../testing/mqtt-clients.js';
import { createEmbeddedBroker, type EmbeddedBroker } from './embedded.js';
import { generateServiceCredentials } from './service-principal.js';

// Sign-ins over MQTT on the audit trail (issue 29, part 5): a script's password login and a
// refused one, with the client's address; a browser tab's messaging secret is not a new sign-in.

let store: TestStore;
let audit: AuditLog;
let auth: AuthService;
let broker: EmbeddedBroker;
let server: http.Server;
let url: string;
const clients = mqttClients();

beforeAll(async () => {
  store = await createTestStore(['alice']);
  audit = new AuditLog(createAuditRepository(store.db), silentLogger);
  auth = new AuthService(
    createUserRepository(store.db),
    createSessionRepository(store.db),
    new MemoryLoginGuard(),
    undefined,
    undefined,
    true,
    audit,
  );
  const service = generateServiceCredentials();
  broker = await createEmbeddedBroker({ auth, service, log: silentLogger });
  server = http.createServer((_req, res) => res.writeHead(404).end());
  broker.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/mqtt`;
});

afterEach(() => clients.endAll());

afterAll(async () => {
  await broker.close();
  await new Promise((resolve) => server.close(resolve));
  await store.close();
});

const entries = async () =>
  (await audit.list({ limit: 50 })).entries
    .map(({ actor, action, target, details, address }) => ({
      actor,
      action,
      target,
      details,
      address,
    }))
    .reverse();

describe('the audit trail of broker logins', () => {
  it('records a password login and a refused one over MQTT, with the address', async () => {
    await clients.connect(url, 'alice', passwordOf('alice'));
    await expect(clients.connect(url, 'alice', 'wrong')).rejects.toThrow(/Bad username/);

    const recorded = await entries();
    expect(recorded).toEqual([
      {
        actor: 'alice',
        action: 'sign-in',
        target: 'alice',
        details: { channel: 'mqtt' },
        address: expect.stringMatching(/127\.0\.0\.1/) as unknown,
      },
      {
        actor: null,
        action: 'sign-in-failed',
        target: 'alice',
        details: { channel: 'mqtt', reason: expect.any(String) as unknown },
        address: expect.stringMatching(/127\.0\.0\.1/) as unknown,
      },
    ]);
  });

  it("records the HTTP sign-in once, not again for each tab that connects with its session's secret", async () => {
    const before = (await entries()).length;
    const login = await auth.login('alice', passwordOf('alice'), '192.0.2.7');
    if (!login.ok || !login.messagingSecret) throw new Error('no messaging secret');
    await clients.connect(url, 'alice', login.messagingSecret);
    await clients.connect(url, 'alice', login.messagingSecret);

    expect((await entries()).slice(before)).toEqual([
      {
        actor: 'alice',
        action: 'sign-in',
        target: 'alice',
        details: { channel: 'http' },
        address: '192.0.2.7',
      },
    ]);
  });
});
