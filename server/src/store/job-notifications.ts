import pg from 'pg';

/** The PostgreSQL channel the job queue announces claimable jobs on. */
export const JOBS_CHANNEL = 'tessera_jobs';

const RECONNECT_MS = 1000;

/** A LISTEN on its own connection; `close` ends it. */
export interface JobChannelListener {
  close(): Promise<void>;
}

/**
 * LISTENs on the jobs channel over a dedicated client, not one of the pool's connections: a
 * pooled connection goes back to the pool between queries and would stop hearing the channel.
 * A lost connection is opened again, and `onReconnect` then stands for the notifications missed
 * meanwhile. Resolves once listening, or once the first attempt failed (retrying in the
 * background): the queue's fallback poll covers the gap either way.
 */
export async function listenForJobs(
  url: string,
  onPayload: (payload: string) => void,
  onReconnect: () => void,
): Promise<JobChannelListener> {
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const connect = async (again: boolean): Promise<void> => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    next.on('notification', (message) => {
      if (message.channel === JOBS_CHANNEL && message.payload) onPayload(message.payload);
    });
    // Errors end the connection; 'end' schedules the next one.
    next.on('error', () => undefined);
    next.on('end', () => {
      if (client !== next) return;
      client = undefined;
      schedule();
    });
    try {
      await next.connect();
      await next.query(`listen ${JOBS_CHANNEL}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      process.emitWarning(
        `Job queue: LISTEN ${JOBS_CHANNEL} failed (${error instanceof Error ? error.message : String(error)}); polling until it works`,
      );
      schedule();
      return;
    }
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    if (again) onReconnect();
  };

  function schedule() {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect(true);
    }, RECONNECT_MS);
    retry.unref();
  }

  await connect(false);
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end();
    },
  };
}
