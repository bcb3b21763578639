/**
 * A real server (HTTP, embedded broker, messaging) as a TLS proxy in front of it sees it: what
 * it tells browsers of the broker, and whose address the broker's login limits count.
 */
import { API_ROUTES } from '@tessera/contract';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { passwordOf } from '../testing/fixtures.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

async function brokerAnswer(server: TestServer): Promise<unknown> {
  const reply = await fetch(`${server.server.url}${API_ROUTES.brokerUrl}`);
  return reply.json();
}

/** An MQTT login over the broker's WebSocket as the proxy passes it on for `client`. */
async function mqttLogin(server: TestServer, password: string, client: string): Promise<string> {
  const connection = mqtt.connect(server.brokerUrl, {
    username: 'alice',
    password,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    wsOptions: { headers: { 'x-forwarded-for': client } },
  });
  return new Promise((resolve) => {
    connection.once('connect', () => {
      connection.end(true);
      resolve('accepted');
    });
    connection.once('error', (err) => {
      connection.end(true);
      resolve(err.message);
    });
  });
}

describe('the web tier behind a TLS proxy (issue 23, part 1)', () => {
  it('tells browsers the embedded broker at wss://<PUBLIC_URL host>/mqtt', async () => {
    t = await startTestServer(
      ['alice'],
      'embedded',
      {},
      {},
      {
        publicOrigin: 'https://tiles.example',
        httpsOnly: true,
      },
    );
    expect(await brokerAnswer(t)).toEqual({ url: 'wss://tiles.example/mqtt', protocolVersion: 4 });
  });

  it('gives PUBLIC_MQTT_URL to browsers on the embedded broker, no longer ignoring it', async () => {
    t = await startTestServer(
      ['alice'],
      'embedded',
      {},
      {},
      {
        publicOrigin: 'https://tiles.example',
        embeddedBrokerPublicUrl: 'wss://live.tiles.example/mqtt',
      },
    );
    expect(await brokerAnswer(t)).toEqual({
      url: 'wss://live.tiles.example/mqtt',
      protocolVersion: 4,
    });
  });

  it("counts the trusted proxy's forwarded client in the broker's login limits", async () => {
    t = await startTestServer(
      ['alice'],
      'embedded',
      {},
      {},
      {
        trustedProxies: { addresses: ['loopback'] },
      },
    );
    // Ten wrong passwords lock alice out at one client address (DEFAULT_LOGIN_LIMITS), not at all.
    for (let i = 0; i < 10; i += 1) {
      expect(await mqttLogin(t, 'wrong', '203.0.113.5')).toMatch(/Bad username or password/);
    }
    expect(await mqttLogin(t, passwordOf('alice'), '203.0.113.5')).toMatch(/Server unavailable/);
    expect(await mqttLogin(t, passwordOf('alice'), '203.0.113.6')).toBe('accepted');
    // Twelve password checks: give a loaded machine time.
  }, 60_000);
});
