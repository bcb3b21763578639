import type { Duplex } from 'node:stream';
import type WebSocket from 'ws';

/**
 * What may wait to be sent to one connection. Aedes delivers a message to its subscribers a
 * hundred at a time and waits for each socket to take it: a connection that stops reading (a
 * flooder busy sending) would stall every delivery. So the stream takes this much without
 * pushing back, and a user's connection with more than this unsent is closed as not reading.
 */
export const MAX_UNSENT_BYTES = 8 * 1024 * 1024;

/** The options of the stream over a broker connection's WebSocket. */
export const STREAM_OPTIONS = { writableHighWaterMark: MAX_UNSENT_BYTES };

/** Bytes given to a connection's stream that its peer has not read yet. */
export function unsentBytes(socket: WebSocket, stream: Duplex): number {
  return socket.bufferedAmount + stream.writableLength;
}
