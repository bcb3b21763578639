import type {
  GenerationStatus,
  GenerationStatusResponse,
  HdJob,
  HdStatusMessage,
} from '@tessera/contract';

/**
 * What this tab knows of the user's HD jobs, as pure data and pure transitions, so the rules are
 * tested without React, timers or a broker. The store (hd-job-store.ts) feeds it from the status
 * stream, the 3 s poll and the job list; the details modal and the queue page read it.
 */

/** One HD job as the app last heard of it. */
export interface HdJobView {
  id: string;
  image: string;
  status: GenerationStatus;
  percent: number;
  outputImage?: string;
  /** What a running job waits for now (the image storage unreachable, retrying), to show. */
  notice?: string;
}

/** An order this tab sent that the server has not spoken about yet. */
export interface PendingHdOrder {
  id: string;
  image: string;
}

export interface HdJobsState {
  jobs: Readonly<Record<string, HdJobView>>;
  /** Ids oldest first: the last one is the newest job, the one GET status-generate-image reports. */
  order: readonly string[];
  pending: readonly PendingHdOrder[];
}

export const EMPTY_HD_JOBS: HdJobsState = { jobs: {}, order: [], pending: [] };

/** A job whose HD image is still to come (it may wait in the queue or run). */
export function isActive(status: GenerationStatus): boolean {
  return status === 'queued' || status === 'in_progress';
}

/** The jobs still to come: known to wait or run, or ordered here and not yet heard of. */
export function activeJobCount(state: HdJobsState): number {
  const known = Object.values(state.jobs).filter((job) => isActive(job.status)).length;
  return known + state.pending.length;
}

function withJob(state: HdJobsState, job: HdJobView): HdJobsState {
  const known = job.id in state.jobs;
  return {
    ...state,
    jobs: { ...state.jobs, [job.id]: job },
    order: known ? state.order : [...state.order, job.id],
  };
}

/**
 * A status message is the server's word: it replaces what was known of that job. Any message
 * about an image settles this tab's pending order for it, since the server answers every order
 * with a message for its image (a new job's 'queued', a refusal's 'error', or the status of the
 * identical job already live).
 */
export function applyStatusMessage(state: HdJobsState, message: HdStatusMessage): HdJobsState {
  const next = withJob(state, {
    id: message.id,
    image: message.image,
    status: message.status,
    percent: message.percent,
    ...(message.output_image === undefined ? {} : { outputImage: message.output_image }),
    ...(message.notice === undefined ? {} : { notice: message.notice }),
  });
  const pending = next.pending.filter((order) => order.image !== message.image);
  return pending.length === next.pending.length ? next : { ...next, pending };
}

const PROGRESS_RANK: Record<GenerationStatus, number> = {
  queued: 0,
  in_progress: 1,
  finished: 2,
  error: 2,
};

/**
 * The polled status of the user's newest HD job (H11). It carries no id, so it applies to the
 * newest job this tab knows of, and only when it moves that job forward: a poll answered just
 * before a status message must not undo it.
 */
export function applyPolledStatus(
  state: HdJobsState,
  polled: GenerationStatusResponse,
): HdJobsState {
  const newestId = state.order.at(-1);
  if (newestId === undefined) return state;
  const job = state.jobs[newestId];
  if (job === undefined || !isActive(job.status)) return state;
  const forward =
    PROGRESS_RANK[polled.status] > PROGRESS_RANK[job.status] ||
    (polled.status === job.status && polled.percent > job.percent);
  if (!forward) return state;
  return withJob(state, {
    ...job,
    status: polled.status,
    percent: polled.percent,
    ...(polled.output_image === undefined ? {} : { outputImage: polled.output_image }),
  });
}

/**
 * The job list of GET /api/query/hd-jobs (newest first) fills in what this tab did not hear,
 * e.g. after a reload. Jobs already known keep their state: the stream is newer than the list.
 * Cancelled jobs are left out: they will never produce an image.
 */
export function applyJobList(state: HdJobsState, jobs: readonly HdJob[]): HdJobsState {
  let next = state;
  for (const job of [...jobs].reverse()) {
    if (job.status === 'cancelled' || job.id in next.jobs) continue;
    next = withJob(next, {
      id: job.id,
      image: job.image,
      status: job.status,
      percent: job.percent,
      ...(job.output_image === undefined ? {} : { outputImage: job.output_image }),
    });
  }
  return next;
}

/** This tab has just sent an order: the image counts as busy until the server speaks of it. */
export function recordOrder(state: HdJobsState, order: PendingHdOrder): HdJobsState {
  return { ...state, pending: [...state.pending, order] };
}

/** The order never left (publishing failed): forget it. */
export function forgetOrder(state: HdJobsState, id: string): HdJobsState {
  return { ...state, pending: state.pending.filter((order) => order.id !== id) };
}

/** A queued job was cancelled on the queue page; the status stream does not report that. */
export function markCancelled(state: HdJobsState, id: string): HdJobsState {
  if (!(id in state.jobs)) return state;
  const jobs = Object.fromEntries(Object.entries(state.jobs).filter(([known]) => known !== id));
  return { ...state, jobs, order: state.order.filter((known) => known !== id) };
}

/** Whether the store should poll GET /api/query/status-generate-image (H11). */
export function needsPolling(state: HdJobsState): boolean {
  return state.pending.length > 0 || Object.values(state.jobs).some((job) => isActive(job.status));
}

/** What the details modal shows for one LD image. */
export interface ImageHdState {
  /** An HD job for the image waits or runs: Generate HD is disabled and shows `percent`. */
  running: boolean;
  percent: number;
  /** The newest finished HD file made from the image, for the download link. */
  downloadImage: string | undefined;
  /** What a running HD job of the image waits for now, in words for the user; else undefined. */
  notice?: string;
}

export function imageHdState(state: HdJobsState, image: string): ImageHdState {
  let running = state.pending.some((order) => order.image === image);
  let percent = 0;
  let downloadImage: string | undefined;
  let notice: string | undefined;
  for (const id of state.order) {
    const job = state.jobs[id];
    if (job?.image !== image) continue;
    if (isActive(job.status)) {
      running = true;
      if (job.status === 'in_progress') percent = Math.max(percent, job.percent);
      if (job.status === 'in_progress' && job.notice !== undefined) notice = job.notice;
    } else if (job.status === 'finished' && job.outputImage !== undefined) {
      downloadImage = job.outputImage;
    }
  }
  return {
    running,
    percent: Math.round(percent),
    downloadImage,
    ...(notice === undefined ? {} : { notice }),
  };
}
