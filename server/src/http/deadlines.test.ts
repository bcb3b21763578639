import net from 'node:net';
import { API_ROUTES } from '@tessera/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.js';

// Short deadlines, so each test waits for the server to close a socket rather than for minutes.
const DEADLINES = { headersMs: 1000, requestMs: 2000, keepAliveMs: 500 };

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer(['alice'], 'embedded', {}, {}, { httpDeadlines: DEADLINES });
});

afterAll(async () => {
  await t.stop();
});

/**
 * A raw connection to the server that sends `data` and collects what comes back; `closed`
 * resolves with it once the server has closed the socket.
 */
function rawSocket(data: string): { closed: Promise<string>; answered: Promise<void> } {
  const socket = net.connect(t.server.port, '127.0.0.1', () => socket.write(data));
  let received = '';
  let onAnswer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (onAnswer = resolve));
  socket.on('data', (chunk) => {
    received += String(chunk);
    onAnswer();
  });
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  return { closed, answered };
}

describe('HTTP deadlines (issue 22, part 6)', () => {
  it('closes a connection that sends nothing (issue 22, part 6)', async () => {
    expect(await rawSocket('').closed).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a connection whose request head never ends, with 408 (issue 22, part 6)', async () => {
    const half = rawSocket(`GET ${API_ROUTES.health} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
    expect(await half.closed).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a connection whose request body never ends (issue 22, part 6)', async () => {
    const body = '{"username":"alice",';
    const half = rawSocket(
      `POST ${API_ROUTES.login} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n${body}`,
    );
    expect(await half.closed).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes an idle keep-alive connection after its answer (issue 22, part 6)', async () => {
    const idle = rawSocket(`GET ${API_ROUTES.health} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await idle.answered;
    expect(await idle.closed).toMatch(/^HTTP\/1\.1 200/);
  });

  it('leaves the MQTT WebSocket on the same port open past every deadline (issue 22, part 6)', async () => {
    const alice = await t.connect('alice');
    // Connections made after the broker's, each closed by one of the deadlines: once the last
    // (the whole request's) is closed, the broker connection has been idle longer than all.
    const idle = rawSocket(`GET ${API_ROUTES.health} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    const half = rawSocket(
      `POST ${API_ROUTES.login} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    );
    await Promise.all([idle.closed, half.closed]);
    expect(alice.mqtt.connected).toBe(true);
    expect((await alice.call('refresh-low-definition')).success).toBe(true);
  });
});
