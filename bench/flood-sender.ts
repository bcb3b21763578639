// The flooding user of flood.ts, in a process of its own so that its sending does not slow the
// server's event loop in the benchmark's process: its connections publish list-tag commands as
// fast as they take them until told to stop, then report how many they wrote.
import mqtt from 'mqtt';

interface Orders {
  url: string;
  username: string;
  password: string;
  connections: number;
  payload: string;
}

const orders = JSON.parse(process.argv[2] ?? '{}') as Orders;
const CHUNK = 200;
let running = true;
let sent = 0;
const stopped = new Promise<void>((resolve) =>
  process.on('message', () => {
    running = false;
    resolve();
  }),
);

const clients = await Promise.all(
  Array.from({ length: orders.connections }, (_, i) =>
    mqtt.connectAsync(orders.url, {
      username: orders.username,
      password: orders.password,
      reconnectPeriod: 0,
      wsOptions: { localAddress: `127.0.0.${10 + i}` },
    }),
  ),
);
process.send?.({ ready: true });
const topic = `command/list-tag/user/${orders.username}`;
await Promise.all(
  clients.map(async (client) => {
    while (running && client.connected) {
      for (let i = 0; i < CHUNK; i++) client.publish(topic, orders.payload);
      sent += CHUNK;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }),
);
// Connections the server closed end early; the report waits for the order to stop.
await stopped;
const stillConnected = clients.filter((client) => client.connected).length;
await Promise.all(clients.map((client) => client.endAsync(true)));
process.send?.({ sent, stillConnected });
process.disconnect();
