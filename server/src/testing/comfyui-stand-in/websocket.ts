/**
 * The websocket clients of /ws?clientId=... (server.py websocket_handler): a client is known by
 * its sid (the latest socket of that id; see the connection handler), greeted on connect, and sent JSON `{type, data}` messages and, when previews are on,
 * binary PREVIEW_IMAGE frames. As in ComfyUI, a message that cannot be sent is dropped silently
 * (`dropMessage` makes that happen on purpose).
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { WebSocket, WebSocketServer } from 'ws';
import { BINARY_EVENT, PREVIEW_IMAGE_TYPE } from '../../engines/comfyui/api-types.js';

export interface WsMessage {
  type: string;
  data: unknown;
}

export interface ClientSockets {
  /** Handles the upgraded connections (noServer: the HTTP server hands them over). */
  readonly wss: WebSocketServer;
  /** Sends to the client `sid`, or to every client when `sid` is undefined. */
  sendJson(sid: string | undefined, type: string, data: unknown): void;
  /** Sends the client `sid` a binary preview image, as samplers do at each step. */
  sendPreview(sid: string | undefined): void;
  /** Cuts every client off; new ones may connect. */
  dropAll(): void;
  /** Cuts every client off and stops accepting new ones. */
  terminate(): void;
}

export async function clientSockets(options: {
  /** Once true, nothing more is sent. */
  isGone: () => boolean;
  /** The messages a client gets on connecting. */
  greet: (sid: string) => WsMessage[];
  /** Binary previews at sampler steps (ComfyUI sends none unless a preview method is set). */
  previews: boolean;
  dropMessage?: (message: WsMessage, sid: string | undefined) => boolean;
  /** Where the client id of each connection is recorded. */
  clientIds: string[];
  /** Told once a socket is open and greeted. */
  connected?: (sid: string) => void;
  /** Told once a socket has closed and its client id is forgotten. */
  disconnected?: (sid: string) => void;
}): Promise<ClientSockets> {
  const { isGone, greet, dropMessage } = options;
  const previewJpeg = await sharp({
    create: { width: 64, height: 64, channels: 3, background: '#808080' },
  })
    .jpeg()
    .toBuffer();
  const sockets = new Map<string, WebSocket>();
  const wss = new WebSocketServer({ noServer: true });

  wss.on('connection', (ws, request) => {
    const query = new URL(request.url ?? '/', 'http://stand-in').searchParams;
    // As server.py: a client id already connected has its old socket forgotten, not closed; and
    // when any socket of that id closes, the id is forgotten, so an old socket closing late
    // leaves the new one receiving nothing (not even broadcasts).
    const sid = query.get('clientId') || randomUUID().replace(/-/g, '');
    sockets.set(sid, ws);
    options.clientIds.push(sid);
    ws.on('close', () => {
      sockets.delete(sid);
      options.disconnected?.(sid);
    });
    for (const message of greet(sid)) ws.send(JSON.stringify(message));
    options.connected?.(sid);
  });

  return {
    wss,
    sendJson(sid, type, data) {
      if (isGone() || dropMessage?.({ type, data }, sid)) return;
      const message = JSON.stringify({ type, data });
      if (sid === undefined) {
        for (const ws of sockets.values()) if (ws.readyState === WebSocket.OPEN) ws.send(message);
        return;
      }
      const ws = sockets.get(sid);
      if (ws?.readyState === WebSocket.OPEN) ws.send(message);
    },
    sendPreview(sid) {
      if (isGone() || sid === undefined || !options.previews) return;
      const ws = sockets.get(sid);
      if (ws?.readyState !== WebSocket.OPEN) return;
      const header = Buffer.alloc(8);
      header.writeUInt32BE(BINARY_EVENT.PREVIEW_IMAGE, 0);
      header.writeUInt32BE(PREVIEW_IMAGE_TYPE.JPEG, 4);
      ws.send(Buffer.concat([header, previewJpeg]), { binary: true });
    },
    dropAll() {
      for (const ws of wss.clients) ws.terminate();
    },
    terminate() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}
