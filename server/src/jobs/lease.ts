import crypto from 'node:crypto';
import os from 'node:os';

/** How long a claimed job stays its process's without a renewal (JOB_LEASE_MS). */
export const DEFAULT_JOB_LEASE_MS = 30_000;

/** Who claims jobs through a queue, and for how long each claim holds without a renewal. */
export interface JobLease {
  /** This process's name in the jobs table: unique to this run of this process. */
  holder: string;
  ms: number;
}

/**
 * A name for this run of this process: the host and pid say where it is (for people reading the
 * table), 128 random bits make it unique, so a restarted process is never taken for its
 * previous life.
 */
export function newLeaseHolder(): string {
  return `${os.hostname()}:${process.pid}:${crypto.randomBytes(16).toString('hex')}`;
}

/** The lease of a queue made without one: a fresh holder and the default term. */
export function defaultLease(): JobLease {
  return { holder: newLeaseHolder(), ms: DEFAULT_JOB_LEASE_MS };
}
