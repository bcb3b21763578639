import type { ZipDownloadRequest, ZipDownloadState } from '@tessera/contract';
import type { Db } from './database.js';

/** A ZIP download ticket as every server process sees it (migration 0014). */
export interface ZipTicket {
  ownerId: number;
  kind: ZipDownloadRequest['kind'];
  names: string[];
  filename: string;
  state: ZipDownloadState;
  sent: number;
  total?: number;
  error?: string;
  /** Milliseconds since the epoch: see the column's comment in the migration. */
  expiresAt: number;
}

/**
 * The tickets of ZIP downloads, keyed by the SHA-256 of their token, so that the POST on one
 * server and the GET (and the progress queries) on another find the same ticket.
 */
export interface ZipDownloadRepository {
  /** Adds a waiting ticket unless the owner holds `limit` live ones already: whether it did. */
  add(tokenHash: string, ticket: ZipTicket, now: number, limit: number): Promise<boolean>;
  find(tokenHash: string): Promise<ZipTicket | undefined>;
  /** Waiting → sending, once: false when the ticket is unknown, not waiting, or expired. */
  startSending(
    tokenHash: string,
    ownerId: number,
    now: number,
    leaseUntil: number,
  ): Promise<boolean>;
  /** Bytes sent so far (and the size), renewing the sending lease. */
  progress(tokenHash: string, sent: number, total: number, leaseUntil: number): Promise<void>;
  /** The end of a ticket: sent or failed, readable until `keepUntil`. */
  finish(
    tokenHash: string,
    end: { state: 'sent' | 'failed'; sent: number; error?: string },
    keepUntil: number,
  ): Promise<void>;
  /** Deletes tickets whose time has passed (sending ones whose lease lapsed long ago too). */
  purge(now: number, staleSendingBefore: number): Promise<void>;
}

export function createZipDownloadRepository(db: Db): ZipDownloadRepository {
  return {
    async add(tokenHash, ticket, now, limit) {
      return db.transaction().execute(async (trx) => {
        const { live } = await trx
          .selectFrom('zip_downloads')
          .select((eb) => eb.fn.countAll<number>().as('live'))
          .where('owner_id', '=', ticket.ownerId)
          .where('state', 'in', ['waiting', 'sending'])
          .where('expires_at', '>', now)
          .executeTakeFirstOrThrow();
        if (Number(live) >= limit) return false;
        await trx
          .insertInto('zip_downloads')
          .values({
            token_hash: tokenHash,
            owner_id: ticket.ownerId,
            kind: ticket.kind,
            names: JSON.stringify(ticket.names),
            filename: ticket.filename,
            state: ticket.state,
            sent: ticket.sent,
            total: ticket.total ?? null,
            error: ticket.error ?? null,
            expires_at: ticket.expiresAt,
          })
          .execute();
        return true;
      });
    },

    async find(tokenHash) {
      const row = await db
        .selectFrom('zip_downloads')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        ownerId: row.owner_id,
        kind: row.kind as ZipTicket['kind'],
        names: JSON.parse(row.names) as string[],
        filename: row.filename,
        state: row.state,
        sent: Number(row.sent),
        ...(row.total !== null && { total: Number(row.total) }),
        ...(row.error !== null && { error: row.error }),
        expiresAt: Number(row.expires_at),
      };
    },

    async startSending(tokenHash, ownerId, now, leaseUntil) {
      const result = await db
        .updateTable('zip_downloads')
        .set({ state: 'sending', expires_at: leaseUntil })
        .where('token_hash', '=', tokenHash)
        .where('owner_id', '=', ownerId)
        .where('state', '=', 'waiting')
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async progress(tokenHash, sent, total, leaseUntil) {
      await db
        .updateTable('zip_downloads')
        .set({ sent, total, expires_at: leaseUntil })
        .where('token_hash', '=', tokenHash)
        .where('state', '=', 'sending')
        .execute();
    },

    async finish(tokenHash, end, keepUntil) {
      await db
        .updateTable('zip_downloads')
        .set({
          state: end.state,
          sent: end.sent,
          error: end.error ?? null,
          expires_at: keepUntil,
        })
        .where('token_hash', '=', tokenHash)
        .where('state', '=', 'sending')
        .execute();
    },

    async purge(now, staleSendingBefore) {
      await db
        .deleteFrom('zip_downloads')
        .where((eb) =>
          eb.or([
            eb.and([eb('state', '!=', 'sending'), eb('expires_at', '<=', now)]),
            eb('expires_at', '<=', staleSendingBefore),
          ]),
        )
        .execute();
    },
  };
}
