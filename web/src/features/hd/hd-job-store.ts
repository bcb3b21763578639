import { POLL_INTERVAL_MS, buildHdCommand } from '@tessera/contract';
import type { HdSizeLabel } from '@tessera/contract';
import { useEffect, useSyncExternalStore } from 'react';
import { useMessaging } from '../../lib/messaging';
import type { HdStatusEvent, RequestClient } from '../../lib/messaging';
import { fetchHdJobs, fetchLatestHdStatus } from '../../lib/api/hd';
import {
  EMPTY_HD_JOBS,
  applyJobList,
  applyPolledStatus,
  applyStatusMessage,
  forgetOrder,
  imageHdState,
  markCancelled,
  needsPolling,
  recordOrder,
} from './hd-job-state';
import type { HdJobsState, ImageHdState } from './hd-job-state';

/**
 * The one record of the user's HD jobs for the page, shared by the details modal, the toasts'
 * screen and the queue page. While any component reads it, it listens to the HD status stream
 * of the messaging client, polls GET /api/query/status-generate-image every 3 s while a job
 * waits or runs (H11), and fills in, once per attachment, the jobs listed by the server (so a
 * reload still shows a running job). The rules themselves are the pure functions of
 * hd-job-state.ts.
 */
class HdJobStore {
  private state: HdJobsState = EMPTY_HD_JOBS;
  private readonly listeners = new Set<() => void>();
  private client: RequestClient | null = null;
  private readers = 0;
  private stopStream: (() => void) | null = null;
  private pollTimer: ReturnType<typeof setInterval> | null = null;

  readonly getSnapshot = (): HdJobsState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Starts the feeds for `client` (once, however many readers); returns the detach function. */
  attach(client: RequestClient): () => void {
    if (this.client !== client) {
      this.stop();
      this.client = client;
      this.readers = 0;
      this.update(EMPTY_HD_JOBS);
      this.stopStream = client.onHdStatus(this.onEvent);
      void this.loadJobList(client);
    }
    this.readers++;
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      if (this.client !== client) return;
      this.readers--;
      if (this.readers === 0) {
        this.stop();
        this.client = null;
        this.update(EMPTY_HD_JOBS);
      }
    };
  }

  /** Sends an HD order; the image counts as busy at once, until the server speaks of it. */
  async order(
    client: RequestClient,
    request: Omit<Parameters<typeof buildHdCommand>[0], 'id' | 'user'>,
  ) {
    const id = crypto.randomUUID();
    const command = buildHdCommand({ id, user: client.user, ...request });
    this.update(recordOrder(this.state, { id, image: request.image }));
    try {
      await client.sendHdCommand(command);
    } catch (error) {
      // The client has logged the publish failure; the order never left, so nothing runs.
      this.update(forgetOrder(this.state, id));
      throw error;
    }
  }

  cancelled(id: string): void {
    this.update(markCancelled(this.state, id));
  }

  private readonly onEvent = (event: HdStatusEvent): void => {
    if (event.kind === 'status') this.update(applyStatusMessage(this.state, event.message));
  };

  private async loadJobList(client: RequestClient): Promise<void> {
    try {
      const jobs = await fetchHdJobs();
      if (this.client === client) this.update(applyJobList(this.state, jobs));
    } catch (error) {
      // The stream still works without the history; the queue page shows list errors itself.
      console.warn('Could not load the HD jobs:', error);
    }
  }

  private readonly poll = async (): Promise<void> => {
    const client = this.client;
    try {
      const status = await fetchLatestHdStatus();
      if (status !== undefined && this.client === client) {
        this.update(applyPolledStatus(this.state, status));
      }
    } catch (error) {
      console.warn('Polling the HD status failed:', error);
    }
  };

  private update(next: HdJobsState): void {
    if (next !== this.state) {
      this.state = next;
      for (const listener of this.listeners) listener();
    }
    this.syncPolling();
  }

  private syncPolling(): void {
    const wanted = this.client !== null && needsPolling(this.state);
    if (wanted && this.pollTimer === null) {
      this.pollTimer = setInterval(() => void this.poll(), POLL_INTERVAL_MS);
    } else if (!wanted && this.pollTimer !== null) {
      clearInterval(this.pollTimer);
      this.pollTimer = null;
    }
  }

  private stop(): void {
    this.stopStream?.();
    this.stopStream = null;
    if (this.pollTimer !== null) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  /** Tests only: forget everything. */
  reset(): void {
    this.stop();
    this.client = null;
    this.readers = 0;
    this.state = EMPTY_HD_JOBS;
    for (const listener of this.listeners) listener();
  }
}

export const hdJobStore = new HdJobStore();

/** The user's HD jobs as this page knows them, kept live while the component is mounted. */
export function useHdJobs(): HdJobsState {
  const client = useMessaging();
  useEffect(() => (client === null ? undefined : hdJobStore.attach(client)), [client]);
  return useSyncExternalStore(hdJobStore.subscribe, hdJobStore.getSnapshot);
}

/** Whether an HD job of `image` waits or runs, its progress, and its newest HD file. */
export function useImageHdState(image: string): ImageHdState {
  return imageHdState(useHdJobs(), image);
}

/** Orders the HD version of an LD image at a size (SPEC §4 HD flow). */
export function orderHd(
  client: RequestClient,
  request: { image: string; metadata: Record<string, unknown>; sizeLabel: HdSizeLabel },
): Promise<void> {
  return hdJobStore.order(client, request);
}

/** Tells every HD view that a queued job was cancelled (the stream does not report it). */
export function reportHdJobCancelled(id: string): void {
  hdJobStore.cancelled(id);
}
