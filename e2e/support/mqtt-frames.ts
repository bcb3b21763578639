import mqttPacket from 'mqtt-packet';
import type { Packet } from 'mqtt-packet';
import type { Page } from 'playwright-core';

/** One MQTT packet the page sent or received over one of its WebSockets. */
export interface SeenPacket {
  direction: 'sent' | 'received';
  /** Which of the page's WebSockets carried it, numbered from 1 in the order they opened. */
  socket: number;
  packet: Packet;
}

/**
 * Notes every MQTT packet the page's WebSockets carry, in the order the browser reports them,
 * as the broker would read them: what the messaging client really sends, not what it meant to.
 * Returns a function that reads the packets noted so far.
 */
export function recordMqttPackets(page: Page): () => SeenPacket[] {
  const seen: SeenPacket[] = [];
  let sockets = 0;
  page.on('websocket', (webSocket) => {
    const socket = ++sockets;
    // One parser per direction: a frame may carry several packets, or part of one.
    const sent = mqttPacket.parser();
    let received: ReturnType<typeof mqttPacket.parser> | undefined;
    sent.on('packet', (packet: Packet) => {
      seen.push({ direction: 'sent', socket, packet });
      // The broker's answers are read in the protocol version the client asked for.
      if (packet.cmd === 'connect') {
        received = mqttPacket.parser({ protocolVersion: packet.protocolVersion ?? 4 });
        received.on('packet', (answer: Packet) =>
          seen.push({ direction: 'received', socket, packet: answer }),
        );
      }
    });
    webSocket.on('framesent', ({ payload }) => void sent.parse(toBuffer(payload)));
    webSocket.on('framereceived', ({ payload }) => void received?.parse(toBuffer(payload)));
  });
  return () => [...seen];
}

function toBuffer(payload: string | Buffer): Buffer {
  return typeof payload === 'string' ? Buffer.from(payload, 'latin1') : payload;
}

/** The PUBLISH packets the page sent to `topic`. */
export function publishedTo(packets: readonly SeenPacket[], topic: string): SeenPacket[] {
  return packets.filter(
    ({ direction, packet }) =>
      direction === 'sent' && packet.cmd === 'publish' && packet.topic === topic,
  );
}
