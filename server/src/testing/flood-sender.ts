// A flooding user, in a process of its own so that its sending does not slow the event loop of
// the server it floods (tests and bench/flood.ts run that server in their own process). Its
// connections log in, say 'ready', and on 'go' publish their payloads in turn, each connection at
// `perConnectionRate` a second (0: as fast as they take them), until 'pause' or 'stop'. It says
// 'refused' at the first refusal answered after each 'go' (the budget has kicked in),
// 'all-closed' when the server has closed every connection, and on 'stop' reports what it sent
// and received. Messages go over the IPC channel of child_process.fork.
import { errorText } from '@tessera/contract';
import mqtt, { type MqttClient } from 'mqtt';

export interface FloodOrders {
  url: string;
  username: string;
  password: string;
  connections: number;
  /** The command's action (`command/<action>/user/<username>`). */
  action: string;
  /** Sent in turn by each connection. */
  payloads: string[];
  /** Commands per second per connection; 0 sends as fast as the connection takes them. */
  perConnectionRate: number;
  /** MQTT 4 (3.1.1, the embedded broker) or 5 (Mosquitto as browsers reach it). */
  protocolVersion?: 4 | 5;
}

export interface FloodReport {
  sent: number;
  /** Messages the flooder's connections received, all connections together. */
  received: number;
  /** Connections the server closed while they were flooding. */
  closedByServer: number;
  /** From the first command sent to the last connection closed by the server, or to 'stop'. */
  seconds: number;
}

export type FloodMessage =
  | { kind: 'ready' }
  | { kind: 'refused' }
  | { kind: 'all-closed' }
  | ({ kind: 'report' } & FloodReport);

export type FloodOrder = 'go' | 'pause' | 'stop';

const TICK_MS = 10;
const UNPACED_CHUNK = 100;

const orders = JSON.parse(process.argv[2] ?? '{}') as FloodOrders;
const tell = (message: FloodMessage) => process.send?.(message);
const topic = `command/${orders.action}/user/${orders.username}`;
let flooding = false;
/** Each 'go' starts a round; a round's loops end when another starts (a quick pause and go). */
let round = 0;
let refusalSeen = false;
const REFUSAL = Buffer.from(errorText('COMMANDS_TOO_FAST'));
let sent = 0;
let received = 0;
let closedByServer = 0;
let startedAt = 0;
let endedAt = 0;

const clients: MqttClient[] = await Promise.all(
  Array.from({ length: orders.connections }, (_, i) =>
    mqtt.connectAsync(orders.url, {
      username: orders.username,
      password: orders.password,
      protocolVersion: orders.protocolVersion ?? 4,
      reconnectPeriod: 0,
      connectTimeout: 10_000,
      // Its own loopback address each, as tabs on several machines would come.
      wsOptions: { localAddress: `127.0.0.${10 + i}` },
    }),
  ),
);
await Promise.all(
  clients.map((client) => client.subscribeAsync(`query/+/user/${orders.username}`, { qos: 0 })),
);
for (const client of clients) {
  client.on('message', (_topic, payload) => {
    received += 1;
    if (flooding && !refusalSeen && payload.includes(REFUSAL)) {
      refusalSeen = true;
      tell({ kind: 'refused' });
    }
  });
  client.once('close', () => {
    if (!flooding) return;
    closedByServer += 1;
    if (closedByServer === clients.length) {
      endedAt = performance.now();
      tell({ kind: 'all-closed' });
    }
  });
}

/** One connection's sending: paced by the clock, or in chunks as fast as it goes. */
async function send(client: MqttClient, from: number, mine: number): Promise<void> {
  let own = 0;
  const next = () => orders.payloads[own % orders.payloads.length] as string;
  while (flooding && round === mine && client.connected) {
    const due =
      orders.perConnectionRate > 0
        ? Math.floor(((performance.now() - from) / 1000) * orders.perConnectionRate)
        : own + UNPACED_CHUNK;
    for (; own < due && client.connected; own++, sent++) client.publish(topic, next());
    await new Promise((resolve) => setTimeout(resolve, orders.perConnectionRate > 0 ? TICK_MS : 0));
  }
}

tell({ kind: 'ready' });
process.on('message', (order: FloodOrder) => {
  if (order === 'go') {
    flooding = true;
    refusalSeen = false;
    startedAt ||= performance.now();
    const from = performance.now();
    round += 1;
    for (const client of clients) void send(client, from, round);
    return;
  }
  if (order === 'pause') {
    flooding = false;
    return;
  }
  flooding = false;
  const seconds = ((endedAt || performance.now()) - startedAt) / 1000;
  tell({ kind: 'report', sent, received, closedByServer, seconds });
  // A connection the server closed may never confirm its end: the process ends regardless.
  const ended = Promise.all(clients.map((client) => client.endAsync(true)));
  const bounded = new Promise((resolve) => setTimeout(resolve, 2000));
  void Promise.race([ended, bounded]).then(() => process.exit(0));
});
