import type { HdJob, HdStatusMessage } from '@tessera/contract';

/**
 * The queue page's rules as pure functions: how a status message changes the listed jobs, and
 * how the jobs are grouped on screen.
 */

export type HdJobGroupName = 'running' | 'queued' | 'finished' | 'failed' | 'cancelled';

/** The groups in screen order; each one's title is UPSCALE_TEXTS.groups[name]. */
export const HD_JOB_GROUPS: readonly {
  name: HdJobGroupName;
  status: HdJob['status'];
}[] = [
  { name: 'running', status: 'in_progress' },
  { name: 'queued', status: 'queued' },
  { name: 'finished', status: 'finished' },
  { name: 'failed', status: 'error' },
  { name: 'cancelled', status: 'cancelled' },
];

/**
 * The jobs of each group, keeping the list's order (newest first), but the queued ones in the
 * order they will run (their position; one without keeps its place after those with).
 */
export function groupJobs(jobs: readonly HdJob[]): Record<HdJobGroupName, HdJob[]> {
  const groups: Record<HdJobGroupName, HdJob[]> = {
    running: [],
    queued: [],
    finished: [],
    failed: [],
    cancelled: [],
  };
  for (const job of jobs) {
    const group = HD_JOB_GROUPS.find((candidate) => candidate.status === job.status);
    if (group) groups[group.name].push(job);
  }
  const place = (job: HdJob) => job.position ?? Number.MAX_SAFE_INTEGER;
  groups.queued.sort((a, b) => place(a) - place(b));
  return groups;
}

/**
 * The list after a status message, or undefined when the message is about a job the list does
 * not hold (a new order): then the list must be fetched again.
 */
export function patchJobs(jobs: readonly HdJob[], message: HdStatusMessage): HdJob[] | undefined {
  const index = jobs.findIndex((job) => job.id === message.id);
  if (index === -1) return undefined;
  const job = jobs[index];
  if (job === undefined) return undefined;
  // A cancelled job stays cancelled: a late message of the attempt it stopped changes nothing.
  if (job.status === 'cancelled') return [...jobs];
  // The stream ends a cancelled job's id with an error that says so (issue 22, part 9).
  if (message.reason === 'cancelled') return markJobCancelled(jobs, message.id);
  const patched: HdJob = { ...job, status: message.status, percent: message.percent };
  // A place in the queue holds only while the job stays queued (a retry's new place is the
  // server's to tell).
  if (message.status !== job.status) delete patched.position;
  if (message.status === 'finished') {
    delete patched.error;
    if (message.output_image !== undefined) patched.output_image = message.output_image;
  } else if (message.error !== undefined) {
    // Kept through the retry's 'queued', so the row can say why it runs again.
    patched.error = message.error;
  }
  const next = [...jobs];
  next[index] = patched;
  return next;
}

/** The list after a job was cancelled. */
export function markJobCancelled(jobs: readonly HdJob[], id: string): HdJob[] {
  return jobs.map((job) => {
    if (job.id !== id) return job;
    const cancelled: HdJob = { ...job, status: 'cancelled' };
    delete cancelled.position;
    return cancelled;
  });
}
