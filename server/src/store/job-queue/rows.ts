import type { Selectable } from 'kysely';
import { isJobKind, type JobKind, type JobRecord, type JobSpec } from '../../jobs/job.js';
import type { JobsTable } from '../schema.js';

/** The columns every query of the queue reads back. */
export const COLUMNS = [
  'id',
  'public_id',
  'owner_id',
  'kind',
  'status',
  'percent',
  'params',
  'output',
  'error',
  'attempts',
  'max_attempts',
  'run_after',
  'dedupe_key',
  'created_at',
  'queue_order',
  'prompt_server',
  'prompt_id',
  'prompt_client_id',
  'notice',
] as const;

/** A row as the queries select it: the COLUMNS. */
export type Row = Pick<Selectable<JobsTable>, (typeof COLUMNS)[number]>;

/** No remote prompt: what finishing, failing and retrying a job write. */
export const NO_PROMPT = { prompt_server: null, prompt_id: null, prompt_client_id: null } as const;

/** No lease and nothing waited for: what every way out of 'in_progress' writes. */
export const NO_LEASE = { lease_holder: null, lease_expires_at: null, notice: null } as const;

/** The text of a job that was interrupted (restart, lost process) on its last attempt. */
export const INTERRUPTED_TOO_OFTEN = 'Interrupted too many times';

export function toRecord<K extends JobKind = JobKind>(row: Row): JobRecord<K> {
  if (!isJobKind(row.kind)) throw new Error(`Job ${row.id} is of an unknown kind '${row.kind}'`);
  // Written by enqueue from this kind's params type: the column holds nothing else.
  const spec = { kind: row.kind, params: JSON.parse(row.params) as unknown } as JobSpec<K>;
  return {
    ...spec,
    id: row.id,
    publicId: row.public_id,
    ownerId: row.owner_id,
    status: row.status,
    percent: row.percent,
    output: row.output,
    error: row.error,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAfter: row.run_after,
    dedupeKey: row.dedupe_key,
    createdAt: row.created_at,
    queueOrder: row.queue_order,
    remotePrompt:
      row.prompt_server !== null && row.prompt_id !== null && row.prompt_client_id !== null
        ? { server: row.prompt_server, promptId: row.prompt_id, clientId: row.prompt_client_id }
        : null,
    ...(row.notice !== null && { notice: row.notice }),
  };
}
