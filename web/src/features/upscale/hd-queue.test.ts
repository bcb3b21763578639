import { describe, expect, it } from 'vitest';
import { hdJob } from '../hd/testing';
import { groupJobs, markJobCancelled, patchJobs } from './hd-queue';

describe('HD queue', () => {
  it('groups jobs by state, keeping the newest-first order', () => {
    const groups = groupJobs([
      hdJob({ id: '1', status: 'queued' }),
      hdJob({ id: '2', status: 'in_progress', percent: 5 }),
      hdJob({ id: '3', status: 'queued' }),
      hdJob({ id: '4', status: 'finished' }),
      hdJob({ id: '5', status: 'error' }),
      hdJob({ id: '6', status: 'cancelled' }),
    ]);
    expect(
      Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, v.map((j) => j.id)])),
    ).toEqual({
      running: ['2'],
      queued: ['1', '3'],
      finished: ['4'],
      failed: ['5'],
      cancelled: ['6'],
    });
  });

  it('puts the queued jobs in the order they will run', () => {
    const groups = groupJobs([
      hdJob({ id: 'new', status: 'queued', position: 2 }),
      hdJob({ id: 'moved', status: 'queued', position: 1 }),
      hdJob({ id: 'unplaced', status: 'queued' }),
      hdJob({ id: 'old', status: 'queued', position: 3 }),
    ]);
    expect(groups.queued.map((job) => job.id)).toEqual(['moved', 'new', 'old', 'unplaced']);
  });

  it('drops a job’s place once it leaves the queue', () => {
    const jobs = [hdJob({ id: 'a', status: 'queued', position: 1 })];
    expect(
      patchJobs(jobs, { id: 'a', image: 'a.png', status: 'queued', percent: 0 })?.[0]?.position,
    ).toBe(1);
    expect(
      patchJobs(jobs, { id: 'a', image: 'a.png', status: 'in_progress', percent: 1 })?.[0],
    ).not.toHaveProperty('position');
    expect(markJobCancelled(jobs, 'a')[0]).not.toHaveProperty('position');
  });

  it('files a job the stream ends as cancelled under Cancelled, not Failed (issue 22, part 9)', () => {
    const jobs = [hdJob({ id: 'a', status: 'queued', position: 1 })];
    const patched = patchJobs(jobs, {
      id: 'a',
      image: 'a.png',
      status: 'error',
      percent: 0,
      error: 'The HD job was cancelled',
      reason: 'cancelled',
    });
    expect(patched?.[0]?.status).toBe('cancelled');
  });

  it('patches a listed job from a status message', () => {
    const jobs = [hdJob({ id: 'a' }), hdJob({ id: 'b' })];
    const running = patchJobs(jobs, {
      id: 'b',
      image: 'a.png',
      status: 'in_progress',
      percent: 40,
    });
    expect(running?.[1]).toMatchObject({ status: 'in_progress', percent: 40 });
    expect(running?.[0]).toBe(jobs[0]);
    const failed = patchJobs(running ?? [], {
      id: 'b',
      image: 'a.png',
      status: 'error',
      percent: 0,
      error: 'boom',
    });
    const retried = patchJobs(failed ?? [], {
      id: 'b',
      image: 'a.png',
      status: 'queued',
      percent: 0,
    });
    expect(retried?.[1]).toMatchObject({ status: 'queued', error: 'boom' });
    const finished = patchJobs(retried ?? [], {
      id: 'b',
      image: 'a.png',
      status: 'finished',
      percent: 100,
      output_image: 'a_30x30.png',
    });
    expect(finished?.[1]).toMatchObject({ status: 'finished', output_image: 'a_30x30.png' });
    expect(finished?.[1]?.error).toBeUndefined();
  });

  it('asks for a refetch when the message is about a job it does not list', () => {
    expect(
      patchJobs([hdJob({ id: 'a' })], { id: 'new', image: 'a.png', status: 'queued', percent: 0 }),
    ).toBeUndefined();
  });

  it('keeps a cancelled job cancelled', () => {
    const jobs = markJobCancelled([hdJob({ id: 'a' }), hdJob({ id: 'b' })], 'a');
    expect(jobs.map((j) => j.status)).toEqual(['cancelled', 'queued']);
    const patched = patchJobs(jobs, { id: 'a', image: 'a.png', status: 'in_progress', percent: 3 });
    expect(patched?.[0]?.status).toBe('cancelled');
  });
});
