import {
  MQTT_RESPONSE_TIMEOUT_MS,
  TEXTS,
  buildHdCommand,
  isConnectionErrorText,
  queryTopic,
  userQueryTopics,
} from '@tessera/contract';
import type { AedesPublishPacket } from 'aedes';
import mqtt from 'mqtt';
import type { IClientOptions, MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CommandFailedError,
  InvalidResponseError,
  RequestCancelledError,
  ResponseTimeoutError,
} from './errors';
import type { HdStatusEvent } from './hd-status';
import { createRequestClient } from './request-client';
import type { RequestClient, RequestClientOptions } from './request-client';
import { FakeMessagingService, startTestBroker, subscriptionsMade } from './test-broker';
import type { ReceivedCommand, TestBroker } from './test-broker';

const USER = 'alice';
const QUERY_TOPICS = userQueryTopics(USER);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let broker: TestBroker;
let service: FakeMessagingService;
const mqttClients: MqttClient[] = [];
const requestClients: RequestClient[] = [];

beforeAll(async () => {
  broker = await startTestBroker();
});

beforeEach(async () => {
  service = await FakeMessagingService.start(broker.url);
});

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  releaseSubscriptions?.();
  for (const client of requestClients.splice(0)) client.dispose();
  await Promise.all(mqttClients.splice(0).map((client) => client.endAsync(true)));
  await service.close();
});

afterAll(async () => {
  await broker.close();
});

let clientCount = 0;

let releaseSubscriptions: (() => void) | undefined;

/**
 * Makes the broker take `delayMs` over each subscription of the user's clients (the messaging
 * service's own are left alone), as a loaded broker may, and grant or refuse it then. Undone
 * after the test.
 */
function holdSubscriptions(delayMs: number, verdict: 'grant' | 'refuse' = 'grant'): void {
  const { aedes } = broker;
  const original = aedes.authorizeSubscribe;
  aedes.authorizeSubscribe = (client, subscription, done) => {
    if (client.id === 'fake-messaging-service') return original(client, subscription, done);
    setTimeout(() => done(null, verdict === 'grant' ? subscription : null), delayMs);
  };
  releaseSubscriptions = () => {
    aedes.authorizeSubscribe = original;
    releaseSubscriptions = undefined;
  };
}

/** The kinds of the packets the client sends, in order. */
function sentPackets(client: MqttClient): string[] {
  const kinds: string[] = [];
  client.on('packetsend', (packet: { cmd: string }) => kinds.push(packet.cmd));
  return kinds;
}

/** Plays a fast service: answers every list-tag with an empty page as soon as it arrives. */
async function answerListTagsAtOnce(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await service.answer(await service.nextCommand(), tagPage(1, []));
}

/** A browser-like client of `USER`: the options of lib/mqtt.ts, mqtt.js defaults otherwise. */
function connectUser(options: IClientOptions = {}): MqttClient {
  const client = mqtt.connect(broker.url, {
    clientId: `tessera_test_${++clientCount}`,
    clean: true,
    username: USER,
    password: 'secret',
    connectTimeout: 4000,
    ...options,
  });
  // Refused reconnects while a broker restarts are reported as errors; outcomes are asserted.
  client.on('error', () => undefined);
  mqttClients.push(client);
  return client;
}

/** A connecting user client and its request client, once the broker holds the subscriptions. */
async function signIn(
  options: { mqtt?: IClientOptions; messaging?: RequestClientOptions } = {},
): Promise<{ mqttClient: MqttClient; messaging: RequestClient; clientId: string }> {
  const clientId = `tessera_test_${++clientCount}`;
  const subscribed = subscriptionsMade(broker.aedes, clientId, QUERY_TOPICS);
  const mqttClient = connectUser({ clientId, ...options.mqtt });
  const acknowledged = subscribeAcknowledged(mqttClient);
  const messaging = createRequestClient(mqttClient, USER, options.messaging);
  requestClients.push(messaging);
  await Promise.all([subscribed, acknowledged]);
  return { mqttClient, messaging, clientId };
}

/** Resolves at the client's next SUBACK: the broker has answered its subscribe. */
function subscribeAcknowledged(client: MqttClient): Promise<void> {
  return new Promise((resolve) => {
    const onPacket = (packet: { cmd: string }) => {
      if (packet.cmd !== 'suback') return;
      client.off('packetreceive', onPacket);
      resolve();
    };
    client.on('packetreceive', onPacket);
  });
}

/** A console spy whose `called` promise resolves at the first call. */
function consoleSpy(method: 'warn' | 'error') {
  let called!: () => void;
  const calledOnce = new Promise<void>((resolve) => (called = resolve));
  const spy = vi.spyOn(console, method).mockImplementation(() => called());
  return { spy, called: calledOnce };
}

function tagPage(page: number, names: string[]) {
  return {
    page,
    size: 10,
    total: names.length,
    tags: names.map((name) => ({ id: `id-${name}`, name, color: '#000000' })),
  };
}

describe('request client over a real broker', () => {
  it('[Q1] subscribes the seven query topics of the user on connect', async () => {
    const { mqttClient } = await signIn();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const arrived = new Set<string>();
    const allArrived = new Promise<void>((resolve) =>
      mqttClient.on('message', (topic) => {
        arrived.add(topic);
        if (arrived.size === QUERY_TOPICS.length) resolve();
      }),
    );

    for (const topic of QUERY_TOPICS) await service.publish(topic, { transactionid: 'probe' });
    await allArrived;

    expect([...arrived].sort()).toEqual(
      [
        'query/list-high-definition/user/alice',
        'query/list-low-definition/user/alice',
        'query/list-tag/user/alice',
        'query/status-generate-image/user/alice',
        'query/status-high-definition/user/alice',
        'query/status-low-definition/user/alice',
        'query/status-tag/user/alice',
      ].sort(),
    );
  });

  it('[Q1] subscribes at once when the client is already connected', async () => {
    const clientId = `tessera_test_${++clientCount}`;
    const mqttClient = connectUser({ clientId });
    await new Promise((resolve) => mqttClient.once('connect', resolve));
    const subscribed = subscriptionsMade(broker.aedes, clientId, QUERY_TOPICS);
    const acknowledged = subscribeAcknowledged(mqttClient);
    requestClients.push(createRequestClient(mqttClient, USER));
    await expect(Promise.all([subscribed, acknowledged])).resolves.toBeDefined();
  });

  it('[Q2] publishes to command/<action>/user/<user> with QoS 0, not retained, as text', async () => {
    const { mqttClient, messaging, clientId } = await signIn();
    const publish = vi.spyOn(mqttClient, 'publish');
    const atBroker = new Promise<AedesPublishPacket>((resolve) =>
      broker.aedes.on('publish', (packet, client) => {
        if (client?.id === clientId) resolve(packet);
      }),
    );

    const response = messaging.request('list-tag', { page: 1, size: 10 });
    const command = await service.nextCommand();
    await service.answer(command, tagPage(1, []));
    await response;

    expect(command.packet.topic).toBe('command/list-tag/user/alice');
    expect(command.packet.qos).toBe(0);
    const sent = await atBroker;
    expect(sent).toMatchObject({ topic: 'command/list-tag/user/alice', qos: 0, retain: false });
    expect(publish).toHaveBeenCalledWith(
      'command/list-tag/user/alice',
      expect.any(String),
      { qos: 0, retain: false, properties: { payloadFormatIndicator: true } },
      expect.any(Function),
    );
  });

  it('[Q3][Q5] resolves concurrent requests with their own answers, out of order', async () => {
    const { messaging } = await signIn();

    const first = messaging.request('list-tag', { page: 1, size: 10 });
    const second = messaging.request('list-tag', { page: 2, size: 10 });
    const created = messaging.request('create-tag', {
      id: 'tag-1',
      name: 'Stone',
      color: '#aa0000',
    });
    const commands = await service.commands(3);

    const envelopes = commands.map(({ payload }) => payload.transactionid);
    expect(new Set(envelopes).size).toBe(3);
    for (const { payload } of commands) {
      expect(payload.transactionid).toMatch(UUID);
      expect(payload.user).toBe(USER);
    }
    const received = (matches: (command: ReceivedCommand) => boolean) => {
      const command = commands.find(matches);
      if (command === undefined) throw new Error('An expected command did not arrive');
      return command;
    };
    const page1 = received((c) => c.action === 'list-tag' && c.payload.page === 1);
    const page2 = received((c) => c.action === 'list-tag' && c.payload.page === 2);
    const createTag = received((c) => c.action === 'create-tag');
    expect(createTag.payload).toMatchObject({ id: 'tag-1', name: 'Stone', color: '#aa0000' });

    // Answered last to first: each promise still gets its own answer.
    await service.answer(createTag, { id: 'tag-1' });
    await service.answer(page2, tagPage(2, ['Wood']));
    await service.answer(page1, tagPage(1, ['Clay', 'Sand']));

    await expect(first).resolves.toMatchObject({
      page: 1,
      tags: [{ name: 'Clay' }, { name: 'Sand' }],
    });
    await expect(second).resolves.toMatchObject({ page: 2, tags: [{ name: 'Wood' }] });
    await expect(created).resolves.toMatchObject({ success: true, id: 'tag-1' });
  });

  it('[Q5] a response nobody waits for only produces a console warning', async () => {
    const { messaging } = await signIn();
    const warn = consoleSpy('warn');

    await service.publish(queryTopic('list-tag', USER), {
      transactionid: crypto.randomUUID(),
      user: USER,
      success: true,
      ...tagPage(1, []),
    });
    await warn.called;
    expect(warn.spy).toHaveBeenCalledTimes(1);

    // The client still works afterwards.
    const response = messaging.request('delete-tag', { id: 'tag-1' });
    await service.answer(await service.nextCommand());
    await expect(response).resolves.toMatchObject({ success: true });
  });

  it('[Q5] malformed JSON on a query topic only warns', async () => {
    const { messaging } = await signIn();
    const warn = consoleSpy('warn');

    await service.publish(queryTopic('status-tag', USER), '{not json');
    await warn.called;
    expect(warn.spy.mock.calls[0]?.join(' ')).toContain('{not json');

    const response = messaging.request('refresh-low-definition', {});
    await service.answer(await service.nextCommand());
    await expect(response).resolves.toMatchObject({ success: true });
  });

  it("[Q6] rejects with 'Response timed out' when no answer comes", async () => {
    const { messaging } = await signIn({ messaging: { responseTimeoutMs: 50 } });

    const response = messaging.request('list-tag', { page: 1, size: 10 });
    const command = await service.nextCommand();
    const rejection = await response.catch((error: unknown) => error);
    expect(rejection).toBeInstanceOf(ResponseTimeoutError);
    expect((rejection as Error).message).toBe('Response timed out');
    expect(TEXTS.responseTimedOut).toBe('Response timed out');

    // The request is forgotten: a late answer finds nobody waiting.
    const warn = consoleSpy('warn');
    await service.answer(command, tagPage(1, []));
    await warn.called;
  });

  it('[Q6] waits 50000 ms by default', async () => {
    const { messaging } = await signIn();
    expect(MQTT_RESPONSE_TIMEOUT_MS).toBe(50_000);
    // Only the timers the request sets are faked; the connection keeps its real ones.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

    let settled = false;
    const response = messaging.request('list-tag', { page: 1, size: 10 });
    const outcome = response.then(
      () => 'resolved',
      (error: unknown) => error,
    );
    void outcome.finally(() => (settled = true));

    await vi.advanceTimersByTimeAsync(MQTT_RESPONSE_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const rejection = await outcome;
    expect(rejection).toBeInstanceOf(ResponseTimeoutError);
    expect((rejection as Error).message).toBe(TEXTS.responseTimedOut);
  });

  it('[Q7][Q8] rejects with the publish error and logs it when the client is disconnecting', async () => {
    const { mqttClient, messaging } = await signIn();
    await mqttClient.endAsync();
    const error = consoleSpy('error');

    const rejection = await messaging
      .request('list-tag', { page: 1, size: 10 })
      .catch((failure: unknown) => failure);

    expect(rejection).toBeInstanceOf(Error);
    expect((rejection as Error).message).toBe('client disconnecting');
    expect(isConnectionErrorText((rejection as Error).message)).toBe(true);
    await error.called;
    expect(error.spy).toHaveBeenCalledWith(expect.stringContaining('list-tag'), rejection);
  });

  it("[Q3] rejects with the server's error text when success is false", async () => {
    const { messaging } = await signIn();

    const response = messaging.request('delete-tag', { id: 'missing' });
    await service.answer(await service.nextCommand(), { success: false, error: 'Tag not found' });

    const rejection = await response.catch((error: unknown) => error);
    expect(rejection).toBeInstanceOf(CommandFailedError);
    expect((rejection as CommandFailedError).message).toBe('Tag not found');
    expect((rejection as CommandFailedError).response).toMatchObject({
      user: USER,
      success: false,
      error: 'Tag not found',
    });
  });

  it('[Q4] rejects a successful answer that lacks the fields of its action', async () => {
    const { messaging } = await signIn();

    const response = messaging.request('list-tag', { page: 1, size: 10 });
    await service.answer(await service.nextCommand(), { page: 1, size: 10, total: 0 });

    await expect(response).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('[Q4] matches an answer only on the response topic of its action', async () => {
    const { messaging } = await signIn();
    const warn = consoleSpy('warn');

    const response = messaging.request('create-tag', { id: 't', name: 'Moss', color: '#00aa00' });
    const command = await service.nextCommand();
    await service.publish(queryTopic('list-tag', USER), {
      transactionid: command.payload.transactionid,
      user: USER,
      success: true,
      ...tagPage(1, []),
    });
    await warn.called;
    await service.answer(command, { id: 't' });

    await expect(response).resolves.toMatchObject({ id: 't' });
  });

  it('[Q1] HD status messages reach onHdStatus listeners; an invalid one is unknown', async () => {
    const { messaging } = await signIn();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const statusTopic = queryTopic('status-generate-image', USER);
    const events: HdStatusEvent[] = [];
    const lateEvents: HdStatusEvent[] = [];
    let fourth!: () => void;
    const fourReceived = new Promise<void>((resolve) => (fourth = resolve));
    const stop = messaging.onHdStatus((event) => events.push(event));
    messaging.onHdStatus((event) => {
      lateEvents.push(event);
      if (lateEvents.length === 3) stop();
      if (lateEvents.length === 4) fourth();
    });

    const finished = { id: 'hd-1', image: 'a.png', status: 'finished', percent: 100 };
    await service.publish(statusTopic, finished);
    await service.publish(statusTopic, { id: 'hd-1', image: 'a.png', status: 'bogus', percent: 5 });
    await service.publish(statusTopic, 'not json');
    await service.publish(statusTopic, {
      id: 'hd-2',
      image: 'b.png',
      status: 'queued',
      percent: 0,
    });
    await fourReceived;

    expect(events).toEqual([
      { kind: 'status', message: finished },
      { kind: 'unknown', payload: { id: 'hd-1', image: 'a.png', status: 'bogus', percent: 5 } },
      { kind: 'unknown', payload: 'not json' },
    ]);
    expect(lateEvents[3]).toMatchObject({ kind: 'status', message: { id: 'hd-2' } });
  });

  it('[Q2] sendHdCommand publishes the HD command as given, without a transactionid', async () => {
    const { mqttClient, messaging } = await signIn();
    const publish = vi.spyOn(mqttClient, 'publish');
    const hdCommand = buildHdCommand({
      id: 'hd-1',
      user: USER,
      image: 'tile.png',
      metadata: { seed: 42 },
      sizeLabel: '60x60',
    });

    await messaging.sendHdCommand(hdCommand);
    const command = await service.nextCommand();

    expect(command.action).toBe('generate-image');
    expect(command.packet.topic).toBe('command/generate-image/user/alice');
    expect(command.payload).toEqual(hdCommand);
    expect(command.payload).not.toHaveProperty('transactionid');
    expect(publish).toHaveBeenCalledWith(
      'command/generate-image/user/alice',
      JSON.stringify(hdCommand),
      { qos: 0, retain: false, properties: { payloadFormatIndicator: true } },
      expect.any(Function),
    );
  });

  it('dispose rejects every pending request and detaches from the mqtt client', async () => {
    const { mqttClient, messaging } = await signIn();
    const messageListeners = mqttClient.listenerCount('message');

    const response = messaging.request('list-tag', { page: 1, size: 10 });
    await service.nextCommand();
    messaging.dispose();

    await expect(response).rejects.toBeInstanceOf(RequestCancelledError);
    await expect(messaging.request('delete-tag', { id: 'x' })).rejects.toBeInstanceOf(
      RequestCancelledError,
    );
    expect(mqttClient.listenerCount('message')).toBe(messageListeners - 1);
    expect(mqttClient.connected).toBe(true);
  });

  it('[Q1] holds a command made while connecting until the SUBACK, so a fast answer is not lost', async () => {
    holdSubscriptions(300);
    const mqttClient = connectUser();
    const sent = sentPackets(mqttClient);
    const messaging = createRequestClient(mqttClient, USER, { responseTimeoutMs: 3000 });
    requestClients.push(messaging);

    const response = messaging.request('list-tag', { page: 1, size: 10 });
    void answerListTagsAtOnce(1);

    await expect(response).resolves.toMatchObject({ tags: [] });
    expect(sent.filter((kind) => kind === 'subscribe' || kind === 'publish')).toEqual([
      'subscribe',
      'publish',
    ]);
  });

  it('[Q1] holds a command on a connected client until the SUBACK of its new subscriptions', async () => {
    const mqttClient = connectUser();
    await new Promise((resolve) => mqttClient.once('connect', resolve));
    holdSubscriptions(300);
    const messaging = createRequestClient(mqttClient, USER, { responseTimeoutMs: 3000 });
    requestClients.push(messaging);
    const acknowledged = subscribeAcknowledged(mqttClient).then(() => 'suback');
    const commandArrived = service.nextCommand().then(async (command) => {
      await service.answer(command, tagPage(1, []));
      return 'command';
    });

    const response = messaging.request('list-tag', { page: 1, size: 10 });

    // Whichever comes first: the command must not reach the service before the SUBACK.
    expect(await Promise.race([acknowledged, commandArrived])).toBe('suback');
    await expect(response).resolves.toMatchObject({ tags: [] });
  });

  it('[Q1] a command made while the connection is down waits for the new SUBACK', async () => {
    const { mqttClient, messaging } = await signIn({
      messaging: { responseTimeoutMs: 5000 },
    });
    const closed = new Promise<void>((resolve) => mqttClient.once('close', () => resolve()));
    await service.close();
    const { port } = broker;
    await broker.close();
    await closed;

    // Offline, mqtt.js would queue it and send it the moment it reconnects, before subscribing.
    const response = messaging.request('list-tag', { page: 1, size: 10 });
    broker = await startTestBroker(port);
    holdSubscriptions(300);
    service = await FakeMessagingService.start(broker.url);
    void answerListTagsAtOnce(1);

    await expect(response).resolves.toMatchObject({ tags: [] });
  });

  it('[Q1] sends each command once, however many are made before the SUBACK', async () => {
    holdSubscriptions(200);
    const mqttClient = connectUser();
    const sent = sentPackets(mqttClient);
    const messaging = createRequestClient(mqttClient, USER, { responseTimeoutMs: 3000 });
    requestClients.push(messaging);

    const responses = [1, 2, 3].map((page) => messaging.request('list-tag', { page, size: 10 }));
    void answerListTagsAtOnce(3);

    await expect(Promise.all(responses)).resolves.toHaveLength(3);
    expect(sent.filter((kind) => kind === 'publish')).toHaveLength(3);
    expect(sent.filter((kind) => kind === 'subscribe')).toHaveLength(1);
  });

  it('[Q8] a refused subscription fails the waiting command at once, not after the timeout', async () => {
    holdSubscriptions(0, 'refuse');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const mqttClient = connectUser();
    const sent = sentPackets(mqttClient);
    // An hour: a command ended by its timeout would outlast the test's own.
    const messaging = createRequestClient(mqttClient, USER, { responseTimeoutMs: 3_600_000 });
    requestClients.push(messaging);

    const rejection = await messaging
      .request('list-tag', { page: 1, size: 10 })
      .catch((error: unknown) => error);

    expect(rejection).toBeInstanceOf(Error);
    expect((rejection as Error).message).toMatch(/^Subscribe error/);
    expect(sent).not.toContain('publish');
  });

  it('[Q1] subscribes again after the broker restarts and answers still arrive', async () => {
    // mqtt.js resubscribes on its own by default; turned off so only the client's own
    // subscribe-on-connect can restore the subscriptions.
    const { mqttClient, messaging, clientId } = await signIn({ mqtt: { resubscribe: false } });
    const reconnected = new Promise((resolve) => mqttClient.once('connect', resolve));

    await service.close();
    const { port } = broker;
    await broker.close();
    broker = await startTestBroker(port);
    const resubscribed = subscriptionsMade(broker.aedes, clientId, QUERY_TOPICS);
    service = await FakeMessagingService.start(broker.url);
    await reconnected;
    await resubscribed;

    const response = messaging.request('list-tag', { page: 1, size: 10 });
    await service.answer(await service.nextCommand(), tagPage(1, ['Brick']));
    await expect(response).resolves.toMatchObject({ tags: [{ name: 'Brick' }] });
  });
});
