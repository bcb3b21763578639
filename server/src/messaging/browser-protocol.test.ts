import { brokerUrlResponseSchema, type BrokerUrlResponse } from '@tessera/contract';
import mqtt, { type IPublishPacket, type MqttClient, type Packet } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
// The web app's own messaging code, run here against the whole server and each broker.
import { messagingConnectOptions } from '../../../web/src/lib/messaging/connect-options';
import {
  createRequestClient,
  type RequestClient,
} from '../../../web/src/lib/messaging/request-client';
import { passwordOf } from '../testing/fixtures.js';
import { mosquittoAvailable } from '../testing/mosquitto.js';
import {
  SERVICE_USERNAME,
  startTestServer,
  type BrokerKind,
  type TestServer,
} from '../testing/test-server.js';

/**
 * The MQTT version the browser speaks (issue 13, defect 6): the server names it beside the broker
 * address, and the web client connects with it: MQTT 5 on Mosquitto, where SPEC §7's payload
 * format indicator then reaches the broker, and MQTT 3.1.1 on the embedded broker (Aedes).
 */
function browserProtocol(kind: BrokerKind, expectedVersion: 4 | 5): void {
  let t: TestServer;
  const clients: MqttClient[] = [];
  const requestClients: RequestClient[] = [];

  beforeAll(async () => {
    t = await startTestServer(['alice'], kind);
  }, 60_000);
  afterEach(async () => {
    for (const client of requestClients.splice(0)) client.dispose();
    await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
  });
  afterAll(async () => {
    await t?.stop();
  });

  async function brokerOfServer(): Promise<BrokerUrlResponse> {
    const answer = await fetch(`http://127.0.0.1:${t.server.port}/api/mosquitto/url`);
    return brokerUrlResponseSchema.parse(await answer.json());
  }

  /** Alice's browser: the web's connection options for the broker the server named. */
  async function connectAsBrowser() {
    const broker = await brokerOfServer();
    const client = mqtt.connect(broker.url, {
      ...messagingConnectOptions(
        { username: 'alice', password: passwordOf('alice') },
        broker.protocolVersion,
      ),
      // Connected below, once the packets it sends are watched.
      manualConnect: true,
    });
    clients.push(client);
    const sent: Packet[] = [];
    client.on('packetsend', (packet) => sent.push(packet));
    const messaging = createRequestClient(client, 'alice');
    requestClients.push(messaging);
    client.connect();
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    return { client, sent, messaging };
  }

  it(`names MQTT ${expectedVersion === 5 ? '5' : '3.1.1'} beside the broker address`, async () => {
    const broker = await brokerOfServer();
    expect(broker.protocolVersion).toBe(expectedVersion);
    expect(broker.url).toBe(t.brokerUrl);
  });

  it(`the web client connects with protocol version ${expectedVersion} and gets its answers`, async () => {
    const { sent, messaging } = await connectAsBrowser();

    const connect = sent.find((packet) => packet.cmd === 'connect');
    expect(connect).toMatchObject({ cmd: 'connect', protocolVersion: expectedVersion });
    await expect(messaging.request('list-tag', { page: 1, size: 10 })).resolves.toMatchObject({
      success: true,
      tags: [],
    });
  });

  if (expectedVersion === 5) {
    it('a command reaches an MQTT 5 subscriber marked as text (payload format indicator)', async () => {
      // Watching as the service principal, which may read every user's commands.
      const observer = await mqtt.connectAsync(t.brokerUrl, {
        username: SERVICE_USERNAME,
        password: passwordOf(SERVICE_USERNAME),
        protocolVersion: 5,
        reconnectPeriod: 0,
      });
      clients.push(observer);
      await observer.subscribeAsync('command/+/user/alice');
      const observed = new Promise<IPublishPacket>((resolve) =>
        observer.on('message', (_topic, _payload, packet) => resolve(packet)),
      );
      const { messaging } = await connectAsBrowser();

      await messaging.request('list-tag', { page: 1, size: 10 });
      const packet = await observed;

      expect(packet.topic).toBe('command/list-tag/user/alice');
      expect(packet.properties?.payloadFormatIndicator).toBe(true);
      expect(JSON.parse(String(packet.payload))).toMatchObject({ user: 'alice', page: 1 });
    });
  }
}

describe('the browser on the embedded broker', () => browserProtocol('embedded', 4));

describe.skipIf(!mosquittoAvailable)('the browser on Mosquitto', () =>
  browserProtocol('mosquitto', 5),
);
