import type { JobKind, JobRecord, JobSpec, JobState } from '../jobs/job.js';
import type { ImageRecord } from '../store/images.js';

// Rows as the repositories give them, for service tests on strict fakes: what a test names
// overrides the defaults.

const THE_START = '2026-01-01T00:00:00.000Z';

/** An image row: by default user 1's LD image of the Square format (1024 × 1024), tile.png. */
export function imageRecord(fields: Partial<ImageRecord> = {}): ImageRecord {
  return {
    id: 7,
    ownerId: 1,
    kind: 'ld',
    filename: 'tile.png',
    sourceImageId: null,
    width: 1024,
    height: 1024,
    bytes: 100,
    metadata: {},
    createdAt: THE_START,
    starred: false,
    hdRemovedAt: null,
    ...fields,
  };
}

/** A job of the queue: its kind and params, and by default queued and not yet tried. */
export function jobRecord<K extends JobKind>(
  spec: JobSpec<K>,
  fields: Partial<JobState> = {},
): JobRecord<K> {
  return {
    id: 1,
    publicId: 'job-1',
    ownerId: 1,
    status: 'queued',
    percent: 0,
    output: null,
    error: null,
    attempts: 0,
    maxAttempts: 3,
    runAfter: THE_START,
    dedupeKey: null,
    createdAt: THE_START,
    queueOrder: 0,
    remotePrompt: null,
    ...fields,
    ...spec,
  };
}
