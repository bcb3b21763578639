import { describe, expect, it } from 'vitest';
import { hdJob, hdStatus } from './fixtures';
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

describe('HD job state', () => {
  it('[M4] an image with no job is idle; an order makes it busy at 0% until the server speaks', () => {
    expect(imageHdState(EMPTY_HD_JOBS, 'a.png')).toEqual({
      running: false,
      percent: 0,
      downloadImage: undefined,
    });
    const ordered = recordOrder(EMPTY_HD_JOBS, { id: 'job-1', image: 'a.png' });
    expect(imageHdState(ordered, 'a.png')).toMatchObject({ running: true, percent: 0 });
    expect(imageHdState(ordered, 'b.png').running).toBe(false);
    expect(needsPolling(ordered)).toBe(true);
    expect(imageHdState(forgetOrder(ordered, 'job-1'), 'a.png').running).toBe(false);
  });

  it('[M4][M5][H4] queued, in_progress with percent, then finished with the HD file', () => {
    let state = recordOrder(EMPTY_HD_JOBS, { id: 'job-1', image: 'a.png' });
    state = applyStatusMessage(state, hdStatus({ status: 'queued' }));
    expect(state.pending).toEqual([]);
    expect(imageHdState(state, 'a.png')).toMatchObject({ running: true, percent: 0 });
    state = applyStatusMessage(state, hdStatus({ status: 'in_progress', percent: 42 }));
    expect(imageHdState(state, 'a.png')).toMatchObject({ running: true, percent: 42 });
    state = applyStatusMessage(
      state,
      hdStatus({ status: 'finished', percent: 100, output_image: 'a_30x30.png' }),
    );
    expect(imageHdState(state, 'a.png')).toEqual({
      running: false,
      percent: 0,
      downloadImage: 'a_30x30.png',
    });
    expect(needsPolling(state)).toBe(false);
  });

  it('[#23] shows what a running job waits for (the storage unreachable) until it goes on', () => {
    const waiting = 'The image storage cannot be reached right now; Tessera keeps trying';
    let state = applyStatusMessage(
      EMPTY_HD_JOBS,
      hdStatus({ status: 'in_progress', percent: 20, notice: waiting }),
    );
    expect(imageHdState(state, 'a.png')).toMatchObject({ running: true, notice: waiting });
    state = applyStatusMessage(state, hdStatus({ status: 'in_progress', percent: 20 }));
    expect(imageHdState(state, 'a.png').notice).toBeUndefined();
  });

  it('[H4] an error ends the run; the retry goes back through queued and runs again', () => {
    let state = applyStatusMessage(EMPTY_HD_JOBS, hdStatus({ status: 'in_progress', percent: 30 }));
    state = applyStatusMessage(state, hdStatus({ status: 'error', percent: 0, error: 'boom' }));
    expect(imageHdState(state, 'a.png').running).toBe(false);
    state = applyStatusMessage(state, hdStatus({ status: 'queued' }));
    expect(imageHdState(state, 'a.png').running).toBe(true);
  });

  it('settles a pending order on any message about its image (the server may report the live twin)', () => {
    let state = recordOrder(EMPTY_HD_JOBS, { id: 'mine', image: 'a.png' });
    state = applyStatusMessage(
      state,
      hdStatus({ id: 'older', status: 'in_progress', percent: 10 }),
    );
    expect(state.pending).toEqual([]);
    expect(imageHdState(state, 'a.png')).toMatchObject({ running: true, percent: 10 });
  });

  it('[H11] a poll moves the newest job forward and never back', () => {
    let state = applyStatusMessage(EMPTY_HD_JOBS, hdStatus({ id: 'old', image: 'b.png' }));
    state = applyStatusMessage(state, hdStatus({ id: 'new', status: 'in_progress', percent: 50 }));
    expect(applyPolledStatus(state, { status: 'in_progress', percent: 40 })).toBe(state);
    expect(applyPolledStatus(state, { status: 'queued', percent: 0 })).toBe(state);
    const later = applyPolledStatus(state, { status: 'in_progress', percent: 70 });
    expect(imageHdState(later, 'a.png').percent).toBe(70);
    expect(imageHdState(later, 'b.png').percent).toBe(0);
    const done = applyPolledStatus(later, {
      status: 'finished',
      percent: 100,
      output_image: 'a_hd.png',
    });
    expect(imageHdState(done, 'a.png')).toMatchObject({
      running: false,
      downloadImage: 'a_hd.png',
    });
    // A finished job stays finished whatever a late poll says.
    expect(applyPolledStatus(done, { status: 'in_progress', percent: 99 })).toBe(done);
    expect(applyPolledStatus(EMPTY_HD_JOBS, { status: 'queued', percent: 0 })).toBe(EMPTY_HD_JOBS);
  });

  it('fills in listed jobs it did not hear of, oldest first, without overriding the stream', () => {
    let state = applyStatusMessage(
      EMPTY_HD_JOBS,
      hdStatus({ id: 'b', status: 'in_progress', percent: 60 }),
    );
    state = applyJobList(state, [
      hdJob({ id: 'c', image: 'c.png', status: 'queued' }),
      hdJob({ id: 'b', status: 'in_progress', percent: 10 }),
      hdJob({ id: 'x', image: 'x.png', status: 'cancelled' }),
      hdJob({ id: 'a', status: 'finished', percent: 100, output_image: 'a_hd.png' }),
    ]);
    expect(state.order).toEqual(['b', 'a', 'c']);
    expect(state.jobs['x']).toBeUndefined();
    expect(imageHdState(state, 'a.png')).toEqual({
      running: true,
      percent: 60,
      downloadImage: 'a_hd.png',
    });
  });

  it('forgets a cancelled job', () => {
    const state = applyStatusMessage(EMPTY_HD_JOBS, hdStatus({ status: 'queued' }));
    const cancelled = markCancelled(state, 'job-1');
    expect(imageHdState(cancelled, 'a.png').running).toBe(false);
    expect(cancelled.order).toEqual([]);
    expect(markCancelled(cancelled, 'unknown')).toBe(cancelled);
  });
});
