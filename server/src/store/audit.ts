import type { AuditAction, AuditEntry } from '@tessera/contract';
import type { Db } from './database.js';

/** One thing to record; `at` is the service's clock. */
export interface AuditRecord {
  at: Date;
  actor: string | null;
  action: AuditAction;
  target?: string | null;
  details?: Record<string, unknown>;
  address?: string | null;
}

export interface AuditFilter {
  action?: AuditAction;
  actor?: string;
  target?: string;
  /** ISO 8601 bounds, both included. */
  from?: string;
  to?: string;
  /** Only entries older than this id (the previous page's last). */
  before?: number;
  limit: number;
}

/** The audit_events table (issue 29, part 5): one method per query. */
export interface AuditRepository {
  record(entry: AuditRecord): Promise<void>;
  /** Newest first, at most `limit`, and the cursor of the next page when there is one. */
  list(filter: AuditFilter): Promise<{ entries: AuditEntry[]; nextBefore?: number }>;
  /** Removes the entries recorded before `cutoff`; how many. */
  removeBefore(cutoff: Date): Promise<number>;
}

export function createAuditRepository(db: Db): AuditRepository {
  return {
    async record({ at, actor, action, target = null, details = {}, address = null }) {
      await db
        .insertInto('audit_events')
        .values({
          at: at.toISOString(),
          actor,
          action,
          target,
          details: JSON.stringify(details),
          address,
        })
        .execute();
    },
    async list(filter) {
      let query = db.selectFrom('audit_events').selectAll();
      if (filter.action) query = query.where('action', '=', filter.action);
      if (filter.actor) query = query.where('actor', '=', filter.actor);
      if (filter.target) query = query.where('target', '=', filter.target);
      // Stored as UTC ISO text: the bounds compare as text once written the same way.
      if (filter.from) query = query.where('at', '>=', new Date(filter.from).toISOString());
      if (filter.to) query = query.where('at', '<=', new Date(filter.to).toISOString());
      if (filter.before !== undefined) query = query.where('id', '<', filter.before);
      // One more than asked: whether an older page exists, without counting.
      const rows = await query
        .orderBy('id', 'desc')
        .limit(filter.limit + 1)
        .execute();
      const page = rows.slice(0, filter.limit);
      const entries = page.map((row) => ({
        id: Number(row.id),
        at: row.at,
        actor: row.actor,
        action: row.action as AuditAction,
        target: row.target,
        details: JSON.parse(row.details) as Record<string, unknown>,
        address: row.address,
      }));
      const last = entries.at(-1);
      return rows.length > filter.limit && last ? { entries, nextBefore: last.id } : { entries };
    },
    async removeBefore(cutoff) {
      const result = await db
        .deleteFrom('audit_events')
        .where('at', '<', cutoff.toISOString())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
