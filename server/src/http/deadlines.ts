import type { ServerOptions } from 'node:http';

/** How long an HTTP client may take (issue 22, part 6); every one is in milliseconds. */
export interface HttpDeadlines {
  /** From connecting (or a keep-alive request's first byte) to the end of the request head. */
  headersMs: number;
  /** From connecting to the last byte of the request body: an upload must arrive within it. */
  requestMs: number;
  /** An idle connection between two requests is closed after this. */
  keepAliveMs: number;
}

/**
 * Short enough that a client which connects and sends nothing, or half a request, ties up no
 * socket for long; generous where people are slow: a 25 MB upload gets 10 minutes (about
 * 350 kbit/s). Keep-alive outlasts the 60 s idle timeout of common load balancers, so the proxy,
 * not Tessera, closes an idle pooled connection and never sends on one being closed.
 */
export const DEFAULT_HTTP_DEADLINES: HttpDeadlines = {
  headersMs: 20_000,
  requestMs: 600_000,
  keepAliveMs: 65_000,
};

/**
 * The deadlines as Fastify's (Node's) server options. A socket upgraded to a WebSocket (the MQTT
 * broker at /mqtt) leaves Node's HTTP bookkeeping, so none of these cuts it. Node checks the
 * head and request deadlines on an interval (30 s by default): a quarter of the head deadline
 * keeps the overrun small.
 */
export function deadlineOptions(deadlines: HttpDeadlines): {
  requestTimeout: number;
  keepAliveTimeout: number;
  http: ServerOptions;
} {
  return {
    requestTimeout: deadlines.requestMs,
    keepAliveTimeout: deadlines.keepAliveMs,
    http: {
      headersTimeout: deadlines.headersMs,
      connectionsCheckingInterval: Math.max(100, Math.min(30_000, deadlines.headersMs / 4)),
    },
  };
}
