import type { JobLease } from '../../jobs/lease.js';
import type { Db } from '../database.js';
import type { Announcer } from './announcer.js';

/** What the parts of one job queue share: its database, its lease, and its announcements. */
export interface QueueContext {
  db: Db;
  lease: JobLease;
  postgres: boolean;
  announce: Announcer['announce'];
}
