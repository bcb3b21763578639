import type { JobRecord } from '../../jobs/job.js';
import type { JobLease } from '../../jobs/lease.js';
import type { JobEventsOf } from '../../services/webhook-ports.js';
import type { Db } from '../database.js';
import type { Announcer } from './announcer.js';

/** What the parts of one job queue share: its database, its lease, and its announcements. */
export interface QueueContext {
  db: Db;
  lease: JobLease;
  postgres: boolean;
  announce: Announcer['announce'];
  /** The webhook events a job's end makes, recorded in the transaction of that end. */
  events?: JobEventsOf<JobRecord>;
}
