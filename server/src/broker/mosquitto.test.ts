import type { IClientOptions, MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { passwordOf } from '../testing/fixtures.js';
import { inbox, mqttClients, subackCodes } from '../testing/mqtt-clients.js';
import { mosquittoAvailable, startMosquitto, type RunningMosquitto } from '../testing/mosquitto.js';

/**
 * deploy/mosquitto's config on a real Mosquitto, with the logins and roles Tessera provisions
 * through the dynamic-security plugin: the access rules of access.ts, as embedded.test.ts checks
 * them on the embedded broker. A refused subscription gets a failure SUBACK, as there; a refused
 * PUBLISH is dropped while the connection stays, so those tests assert on what is delivered.
 */

const SERVICE = { username: 'tessera-service', password: 'tessera-service-password' };

let broker: RunningMosquitto;
const clients = mqttClients();

function connect(
  username: string | undefined,
  password: string | undefined,
  options: IClientOptions & { url?: string } = {},
): Promise<MqttClient> {
  const { url = broker.tcpUrl, ...rest } = options;
  return clients.connect(url, username, password, rest);
}

const asUser = (name: string, options?: IClientOptions & { url?: string }) =>
  connect(name, passwordOf(name), options);
const asService = (options?: IClientOptions) =>
  connect(SERVICE.username, SERVICE.password, options);

/** Whether the broker closes the client's connection within two seconds. */
const closesSoon = (client: MqttClient) =>
  new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 2000);
    client.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

describe.skipIf(!mosquittoAvailable)('Mosquitto with deploy/mosquitto', () => {
  beforeAll(async () => {
    broker = await startMosquitto(SERVICE, [
      { username: 'alice', password: passwordOf('alice') },
      { username: 'bob', password: passwordOf('bob') },
    ]);
  }, 30_000);

  afterEach(() => clients.endAll());

  afterAll(async () => {
    await broker?.stop();
  });

  it('accepts a user and the service principal with the right password', async () => {
    const alice = await asUser('alice');
    const svc = await asService();
    expect(alice.connected).toBe(true);
    expect(svc.connected).toBe(true);
  });

  it('refuses a wrong password, an unknown user and an anonymous client', async () => {
    // Mosquitto 2 answers CONNACK 5 (not authorized) where Aedes answers 4 (bad password).
    await expect(connect('alice', 'wrong')).rejects.toThrow(/Not authorized/);
    await expect(connect('mallory', 'x')).rejects.toThrow(/Not authorized/);
    await expect(connect(SERVICE.username, 'guess')).rejects.toThrow(/Not authorized/);
    await expect(connect(undefined, undefined)).rejects.toThrow(/Not authorized/);
  });

  it("[A2] delivers a user their own query topics and nobody else's, whatever they subscribe to", async () => {
    const alice = await asUser('alice');
    await alice.subscribeAsync('query/list-tag/user/alice');
    // The role's subscribePattern refuses anything wider or another user's at SUBSCRIBE.
    for (const filter of ['query/list-tag/user/bob', '#', 'query/+/user/+', 'query/#']) {
      await expect(alice.subscribeAsync(filter)).rejects.toThrow(/Subscribe error/);
    }
    const aliceSees = inbox(alice);
    const bob = await asUser('bob');
    await bob.subscribeAsync('query/list-tag/user/bob');
    const bobSees = inbox(bob);

    const svc = await asService();
    await svc.publishAsync('query/list-tag/user/bob', 'for bob');
    await svc.publishAsync('query/list-tag/user/alice', 'for alice');
    await bob.publishAsync('command/list-tag/user/bob', 'bob asks');
    // A round trip on bob's connection: the broker has handled his PUBLISH before the markers.
    await subackCodes(bob, ['query/list-tag/user/bob']);
    await aliceSees.fence(svc, 'query/list-tag/user/alice');
    await bobSees.fence(svc, 'query/list-tag/user/bob');
    expect(aliceSees.received).toEqual([
      { topic: 'query/list-tag/user/alice', payload: 'for alice' },
    ]);
    expect(bobSees.received).toEqual([{ topic: 'query/list-tag/user/bob', payload: 'for bob' }]);
  });

  it("[A2] delivers a user's own commands to the service and never one on another user's topic", async () => {
    const svc = await asService();
    await svc.subscribeAsync('command/+/user/+');
    const seen = inbox(svc);

    const alice = await asUser('alice');
    const own = seen.next();
    await alice.publishAsync('command/list-tag/user/alice', '{"ok":1}');
    expect(await own).toEqual({ topic: 'command/list-tag/user/alice', payload: '{"ok":1}' });

    await alice.publishAsync('command/delete-tag/user/bob', '{"evil":0}');
    // With QoS 1 Mosquitto even acknowledges the refused message (MQTT 3.1.1 has no refusal).
    await alice.publishAsync('command/delete-tag/user/bob', '{"evil":1}', { qos: 1 });
    await alice.publishAsync('command/delete-tag/user/bob/extra', '{"evil":2}');
    await seen.fence(alice, 'command/list-tag/user/alice');
    expect(seen.received.map((m) => m.topic)).toEqual(['command/list-tag/user/alice']);
    // Unlike the embedded broker, Mosquitto drops a refused PUBLISH and keeps the connection.
    expect(alice.connected).toBe(true);
  });

  it('[A2] refuses a user publishing on a query topic, so responses cannot be forged', async () => {
    const bob = await asUser('bob');
    await bob.subscribeAsync('query/list-tag/user/bob');
    const bobSees = inbox(bob);
    const alice = await asUser('alice');
    await alice.publishAsync('query/list-tag/user/bob', 'forged');
    await alice.publishAsync('query/list-tag/user/bob', 'forged again', { qos: 1 });
    // The PUBACK says the broker has handled both; the marker comes after them.
    await bobSees.fence(await asService(), 'query/list-tag/user/bob');
    expect(bobSees.received).toEqual([]);

    // The subscription works: the service's answer arrives.
    const reply = bobSees.next();
    const svc = await asService();
    await svc.publishAsync('query/list-tag/user/bob', 'real');
    expect(await reply).toEqual({ topic: 'query/list-tag/user/bob', payload: 'real' });
  });

  it('disconnects a user who publishes a retained message and keeps nothing for later', async () => {
    // The ACL allows alice to write her own command topic and cannot forbid the retain flag;
    // `retain_available false` in mosquitto.conf does, for every client.
    const svc = await asService();
    await svc.subscribeAsync('command/+/user/+');
    const seen = inbox(svc);
    const alice = await asUser('alice');
    const gone = closesSoon(alice);
    alice.publish('command/list-tag/user/alice', 'kept?', { retain: true });
    expect(await gone).toBe(true);

    const later = await asService();
    await later.subscribeAsync('command/+/user/+');
    const laterSees = inbox(later);
    // A retained message would be sent with the SUBACK, before the markers (the service's ACL
    // keeps it off command topics; bob may publish on his).
    const bob = await asUser('bob');
    await seen.fence(bob, 'command/list-tag/user/bob');
    await laterSees.fence(bob, 'command/list-tag/user/bob');
    expect(seen.received).toEqual([]);
    expect(laterSees.received).toEqual([]);
    expect(svc.connected).toBe(true);
  });

  it('refuses retained messages from the service principal too (retain_available false)', async () => {
    const svc = await asService();
    const gone = closesSoon(svc);
    svc.publish('query/list-tag/user/alice', 'kept?', { retain: true });
    expect(await gone).toBe(true);
  });

  it('lets the service principal subscribe to every command and answer any user', async () => {
    const svc = await asService();
    await svc.subscribeAsync('command/+/user/+');
    const commands = inbox(svc);
    const bob = await asUser('bob');
    await bob.subscribeAsync('query/status-tag/user/bob');
    const reply = inbox(bob).next();
    const command = commands.next();
    await bob.publishAsync('command/create-tag/user/bob', '{"id":"t1"}');
    expect(await command).toEqual({ topic: 'command/create-tag/user/bob', payload: '{"id":"t1"}' });
    await svc.publishAsync('query/status-tag/user/bob', '{"success":true}');
    expect(await reply).toEqual({
      topic: 'query/status-tag/user/bob',
      payload: '{"success":true}',
    });
  });

  it('[A2] serves browsers on the WebSocket listener with the same rules', async () => {
    const bob = await asUser('bob', { url: broker.wsUrl });
    await bob.subscribeAsync('query/list-tag/user/bob');
    await expect(bob.subscribeAsync('query/list-tag/user/alice')).rejects.toThrow(
      /Subscribe error/,
    );
    const bobSees = inbox(bob);
    const svc = await asService();
    await svc.subscribeAsync('command/+/user/+');
    const commands = inbox(svc);

    await svc.publishAsync('query/list-tag/user/alice', 'for alice');
    await svc.publishAsync('query/list-tag/user/bob', 'for bob');
    await bob.publishAsync('command/list-tag/user/bob', 'bob asks');
    await bob.publishAsync('command/list-tag/user/alice', 'bob pretends');
    await bobSees.fence(svc, 'query/list-tag/user/bob');
    await commands.fence(bob, 'command/list-tag/user/bob');
    expect(bobSees.received).toEqual([{ topic: 'query/list-tag/user/bob', payload: 'for bob' }]);
    expect(commands.received).toEqual([
      { topic: 'command/list-tag/user/bob', payload: 'bob asks' },
    ]);
  });

  it('comes back after a restart: clients reconnect, resubscribe and log in again', async () => {
    const svc = await asService({ reconnectPeriod: 100 });
    await svc.subscribeAsync('command/+/user/+');
    const seen = inbox(svc);

    const reconnected = new Promise((resolve) => svc.once('connect', resolve));
    // mqtt.js sends its subscriptions again after the CONNACK; wait for their SUBACK.
    const resubscribed = new Promise<void>((resolve) =>
      svc.on('packetreceive', (packet) => {
        if (packet.cmd === 'suback') resolve();
      }),
    );
    await broker.restart();
    await reconnected;
    await resubscribed;

    const alice = await asUser('alice');
    const own = seen.next();
    await alice.publishAsync('command/list-tag/user/alice', 'after restart');
    expect(await own).toEqual({ topic: 'command/list-tag/user/alice', payload: 'after restart' });
  });
});
