import net from 'node:net';
import { Transform } from 'node:stream';

export interface SlowLine {
  /** The server's address through the slow line. */
  url: string;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of the server that passes the server's answers at `bytesPerSecond`, as a
 * slow line to a user would (requests go at full speed). Chromium's network emulation does not
 * slow down downloads, so a test that watches one go uses this. Everything (pages, HTTP, the
 * broker's WebSocket) may go through it: it only forwards bytes.
 */
export async function startSlowLine(target: string, bytesPerSecond: number): Promise<SlowLine> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    }
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(paced(bytesPerSecond)).pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const address = proxy.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}

/** Lets each chunk through when the line would have carried it: back-pressure does the rest. */
function paced(bytesPerSecond: number): Transform {
  let free = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const now = Date.now();
      free = Math.max(free, now) + (chunk.length / bytesPerSecond) * 1000;
      setTimeout(() => callback(null, chunk), free - now);
    },
  });
}
