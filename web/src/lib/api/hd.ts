import {
  API_ROUTES,
  generationStatusResponseSchema,
  hdJobsResponseSchema,
} from '@tessera/contract';
import type { GenerationStatusResponse, HdJob, HdJobsResponse } from '@tessera/contract';
import { ACCEPT_ANY, expectAnswer, getJson, postJson, send } from './http';

/**
 * The HTTP side of HD: the polled status (SPEC §7), and the job list and the queue commands
 * (beyond it).
 */

/** The status of the user's newest HD job; undefined while the user has none (404). */
export async function fetchLatestHdStatus(): Promise<GenerationStatusResponse | undefined> {
  const answer = await send(API_ROUTES.hdStatus);
  if (answer.status === 404) return undefined;
  return expectAnswer(answer, generationStatusResponseSchema);
}

/** The user's HD jobs, newest first. */
export async function fetchHdJobs(): Promise<HdJob[]> {
  return (await fetchHdQueue()).jobs;
}

/** The user's HD jobs (the queued ones numbered in run order) and whether the queue is paused. */
export function fetchHdQueue(): Promise<HdJobsResponse> {
  return getJson(API_ROUTES.hdJobs, hdJobsResponseSchema);
}

/**
 * Cancels a queued HD job. Rejects with an HttpError carrying the server's text when the job
 * already runs or ended (409) or is unknown (404).
 */
export async function cancelHdJob(id: string): Promise<void> {
  expectAnswer(await postJson(API_ROUTES.cancelHdJob, { id }), ACCEPT_ANY);
}

/**
 * Makes a queued job the next of the user's to run; resolves with the queue as it now is.
 * Rejects with the server's text when the job already runs or ended (409) or is unknown (404).
 */
export async function moveHdJobToTop(id: string): Promise<HdJobsResponse> {
  return expectAnswer(await postJson(API_ROUTES.moveHdJobToTop, { id }), hdJobsResponseSchema);
}

/** Pauses (or resumes) the user's queue: a running job finishes; the answer is the queue. */
export async function setHdQueuePaused(paused: boolean): Promise<HdJobsResponse> {
  const path = paused ? API_ROUTES.pauseHdQueue : API_ROUTES.resumeHdQueue;
  return expectAnswer(await postJson(path), hdJobsResponseSchema);
}
