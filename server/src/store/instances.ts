import type { Db } from './database.js';

/**
 * The server and worker processes sharing the database, each by its INSTANCE_NAME: a process
 * renews its row while it runs and removes it when it stops, so one that starts can tell whether
 * others are at work (and leave the start-up repairs alone).
 */
export interface InstanceRegistry {
  beat(name: string, role: string, now: number): Promise<void>;
  /** The other instances whose last beat came after `since`. */
  othersAlive(name: string, since: number): Promise<string[]>;
  remove(name: string): Promise<void>;
}

export function createInstanceRegistry(db: Db): InstanceRegistry {
  return {
    async beat(name, role, now) {
      await db
        .insertInto('instances')
        .values({ name, role, heartbeat_at: now })
        .onConflict((oc) => oc.column('name').doUpdateSet({ role, heartbeat_at: now }))
        .execute();
    },
    async othersAlive(name, since) {
      const rows = await db
        .selectFrom('instances')
        .select('name')
        .where('name', '!=', name)
        .where('heartbeat_at', '>', since)
        .orderBy('name')
        .execute();
      return rows.map((row) => row.name);
    },
    async remove(name) {
      await db.deleteFrom('instances').where('name', '=', name).execute();
    },
  };
}
