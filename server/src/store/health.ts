import { sql } from 'kysely';
import type { Db } from './database.js';

/** The store's own health: one method per query, like the other repositories. */
export interface HealthRepository {
  /** Throws when the database does not answer. */
  check(): Promise<void>;
}

export function createHealthRepository(db: Db): HealthRepository {
  return {
    async check() {
      await sql`select 1`.execute(db);
    },
  };
}
