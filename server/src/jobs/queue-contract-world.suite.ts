import { HD_PARAMS, PREVIEW_PARAMS } from '../testing/job-params.js';
import type { JobKind, NewJob } from './job.js';
import type { JobQueue, OwnerQueue } from './queue.js';

/** One process's view of a queue: the runner's port and the owners' port, on the same jobs. */
export interface QueuePorts {
  jobs: JobQueue;
  owner: OwnerQueue;
}

/** A queue to run the contract on, and what only its implementation can do. */
export interface JobQueueUnderTest {
  /**
   * The queue as a process holding leases as `holder` for `leaseMs` sees it; every call with
   * the same store sees the same jobs (several processes sharing one queue).
   */
  process(holder: string, leaseMs: number): QueuePorts;
  /** Adds an owner (the jobs' owner ids must exist); their id. */
  addOwner(name: string): Promise<number>;
  /** Lets go of everything the queue holds. */
  destroy(): Promise<void>;
}

export const LEASE_MS = 30_000;
/** The clock's start: every step of a test is a second later (tick), never the wall clock. */
const START = Date.parse('2026-01-01T00:00:00.000Z');

/** What each case works with: process A's ports, two owners, and a controlled clock. */
export class QueueWorld {
  clock = START;
  jobs!: JobQueue;
  owner!: OwnerQueue;
  ann = 0;
  bob = 0;

  constructor(readonly under: JobQueueUnderTest) {}

  async open(): Promise<void> {
    ({ jobs: this.jobs, owner: this.owner } = this.under.process('process-a', LEASE_MS));
    this.ann = await this.under.addOwner('ann');
    this.bob = await this.under.addOwner('bob');
  }

  /** Another process on the same queue. */
  other(): QueuePorts {
    return this.under.process('process-b', LEASE_MS);
  }

  /** Each call a second later. */
  tick(): Date {
    return new Date((this.clock += 1000));
  }

  at(ms: number): Date {
    return new Date(ms);
  }

  hdJob(ownerId: number, publicId: string, fields: Partial<NewJob<'hd'>> = {}): NewJob<'hd'> {
    return { publicId, ownerId, kind: 'hd', params: HD_PARAMS, maxAttempts: 3, ...fields };
  }

  previewJob(ownerId: number, publicId: string): NewJob<'preview'> {
    return { publicId, ownerId, kind: 'preview', params: PREVIEW_PARAMS, maxAttempts: 1 };
  }

  /** Queues the job (it must be taken); its id. */
  async enqueued(job: NewJob): Promise<number> {
    const record = await this.jobs.enqueue(job, this.tick());
    if (!record) throw new Error(`not queued: ${job.publicId}`);
    return record.id;
  }

  /** Claims the next job of the kind (there must be one); its id. */
  async claimed(kind: JobKind = 'hd'): Promise<number> {
    const job = await this.jobs.claim(kind, this.tick());
    if (!job) throw new Error('nothing to claim');
    return job.id;
  }

  /** Claims every runnable HD job, one after another; their public ids in claim order. */
  async claimAll(): Promise<string[]> {
    const taken: string[] = [];
    for (let job = await this.jobs.claim('hd', this.tick()); job;) {
      taken.push(job.publicId);
      job = await this.jobs.claim('hd', this.tick());
    }
    return taken;
  }

  /** Ann's HD job by its public id, as the owner's page reads it. */
  anns(publicId: string) {
    return this.owner.findByPublicId(this.ann, 'hd', publicId);
  }
}
