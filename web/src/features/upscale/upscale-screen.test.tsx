// @vitest-environment jsdom
import { errorText, shownErrorText, UPSCALE_TEXTS } from '@tessera/contract';
import type { HdJob } from '@tessera/contract';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  TestProviders,
  fakeClient,
  hdJob,
  hdJobStore,
  resetAfterTest,
  stubFetch,
} from '../hd/testing';
import type { FakeClient, FetchCall } from '../hd/testing';
import { UpscaleScreen } from './upscale-screen';

let client: FakeClient;
let jobs: HdJob[];
let paused: boolean;
let cancelAnswer: [number, unknown];
let moveAnswer: (() => [number, unknown]) | undefined;
let calls: FetchCall[];

function renderScreen() {
  return render(
    <TestProviders client={client}>
      <UpscaleScreen />
    </TestProviders>,
  );
}

const group = (name: string) => screen.getByRole('region', { name });
const row = (name: string, image: string) =>
  within(group(name)).getByRole('row', { name: new RegExp(image.replace('.', '\\.')) });

beforeEach(() => {
  hdJobStore.reset();
  client = fakeClient();
  jobs = [
    hdJob({ id: 'q2', image: 'wall.png', size: '60x60', status: 'queued' }),
    hdJob({ id: 'q1', image: 'brick.png', status: 'queued' }),
    hdJob({ id: 'r1', image: 'stone.png', status: 'in_progress', percent: 40 }),
    hdJob({
      id: 'f1',
      image: 'wood.png',
      status: 'finished',
      percent: 100,
      output_image: 'wood_30x30.png',
    }),
    hdJob({ id: 'e1', image: 'sand.png', status: 'error', error: 'engine failed' }),
  ];
  paused = false;
  cancelAnswer = [200, {}];
  moveAnswer = undefined;
  calls = stubFetch(({ path }) => {
    if (path === '/api/query/hd-jobs') return [200, { jobs, paused }];
    if (path === '/api/command/cancel-hd-job') return cancelAnswer;
    if (path === '/api/command/move-hd-job-to-top') return moveAnswer?.();
    if (path === '/api/command/pause-hd-queue') paused = true;
    if (path === '/api/command/resume-hd-queue') paused = false;
    if (path.endsWith('-hd-queue')) return [200, { jobs, paused }];
    return undefined;
  });
});

afterEach(resetAfterTest);

describe('UpscaleScreen (the HD queue)', () => {
  it('lists the jobs by state: running with progress, queued, finished with download, failed', async () => {
    renderScreen();
    await screen.findByRole('region', { name: UPSCALE_TEXTS.groups.running });
    expect(
      screen
        .getAllByRole('heading', { level: 2 })
        .map((heading) => heading.firstChild?.textContent),
    ).toEqual(
      (['running', 'queued', 'finished', 'failed'] as const).map(
        (name) => UPSCALE_TEXTS.groups[name],
      ),
    );

    const running = row(UPSCALE_TEXTS.groups.running, 'stone.png');
    expect(within(running).getByRole('progressbar').getAttribute('value')).toBe('40');
    expect(running.textContent).toContain('40%');

    expect(
      within(group(UPSCALE_TEXTS.groups.queued))
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.querySelector('th')?.textContent),
    ).toEqual(['wall.png', 'brick.png']);
    const download = within(row(UPSCALE_TEXTS.groups.finished, 'wood.png')).getByRole('link', {
      name: 'Download HD Image',
    });
    expect(download.getAttribute('href')).toBe('/api/images/hd/wood_30x30.png');
    expect(row(UPSCALE_TEXTS.groups.failed, 'sand.png').textContent).toContain('engine failed');
    expect(row(UPSCALE_TEXTS.groups.queued, 'wall.png').textContent).toContain('60x60');
    expect(row(UPSCALE_TEXTS.groups.queued, 'wall.png').textContent).toContain('4/3/2025');
  });

  it('follows the status stream: progress, finish, and a new order', async () => {
    renderScreen();
    await screen.findByRole('region', { name: UPSCALE_TEXTS.groups.running });
    client.emit({ id: 'r1', image: 'stone.png', status: 'in_progress', percent: 75 });
    expect(
      within(row(UPSCALE_TEXTS.groups.running, 'stone.png'))
        .getByRole('progressbar')
        .getAttribute('value'),
    ).toBe('75');

    client.emit({ id: 'q1', image: 'brick.png', status: 'in_progress', percent: 5 });
    client.emit({
      id: 'r1',
      image: 'stone.png',
      status: 'finished',
      percent: 100,
      output_image: 'stone_30x30.png',
    });
    expect(row(UPSCALE_TEXTS.groups.running, 'brick.png')).toBeTruthy();
    expect(
      within(row(UPSCALE_TEXTS.groups.finished, 'stone.png'))
        .getByRole('link', { name: 'Download HD Image' })
        .getAttribute('href'),
    ).toBe('/api/images/hd/stone_30x30.png');

    const listed = calls.filter((call) => call.path === '/api/query/hd-jobs').length;
    jobs = [hdJob({ id: 'n1', image: 'new.png', status: 'queued' }), ...jobs];
    client.emit({ id: 'n1', image: 'new.png', status: 'queued', percent: 0 });
    expect(
      await within(group(UPSCALE_TEXTS.groups.queued)).findByRole('row', { name: /new\.png/ }),
    ).toBeTruthy();
    expect(calls.filter((call) => call.path === '/api/query/hd-jobs').length).toBeGreaterThan(
      listed,
    );
  });

  it('cancels a queued job', async () => {
    const user = userEvent.setup();
    renderScreen();
    await user.click(
      await screen.findByRole('button', { name: UPSCALE_TEXTS.cancelJob('brick.png', '30x30') }),
    );
    expect(
      await screen.findByRole('region', { name: UPSCALE_TEXTS.groups.cancelled }),
    ).toBeTruthy();
    expect(row(UPSCALE_TEXTS.groups.cancelled, 'brick.png')).toBeTruthy();
    expect(calls.find((call) => call.path === '/api/command/cancel-hd-job')).toEqual({
      path: '/api/command/cancel-hd-job',
      method: 'POST',
      body: { id: 'q1' },
    });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows the server's error when the job can no longer be cancelled (409)", async () => {
    const user = userEvent.setup();
    cancelAnswer = [409, { error: errorText('HD_JOB_NOT_QUEUED') }];
    renderScreen();
    await user.click(
      await screen.findByRole('button', { name: UPSCALE_TEXTS.cancelJob('wall.png', '60x60') }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(shownErrorText('es', 'HD_JOB_NOT_QUEUED'));
    expect(alert.textContent).toContain('wall.png');
  });

  it('lists the queued jobs in the order they will run, and moves one to the top', async () => {
    const user = userEvent.setup();
    // Positions from the server: wall.png (the newer) runs after brick.png.
    const positioned = (first: string) =>
      jobs.map((job) =>
        job.status === 'queued' ? { ...job, position: job.id === first ? 1 : 2 } : job,
      );
    jobs = positioned('q1');
    moveAnswer = () => {
      jobs = positioned('q2');
      return [200, { jobs, paused }];
    };
    renderScreen();
    const queuedImages = () =>
      within(group(UPSCALE_TEXTS.groups.queued))
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.querySelector('th')?.textContent);
    await screen.findByRole('region', { name: UPSCALE_TEXTS.groups.queued });
    expect(queuedImages()).toEqual(['brick.png', 'wall.png']);
    // The first is next already: nothing to move.
    expect(row(UPSCALE_TEXTS.groups.queued, 'brick.png').textContent).toContain(UPSCALE_TEXTS.next);
    expect(
      within(row(UPSCALE_TEXTS.groups.queued, 'brick.png')).queryByRole('button', {
        name: /to the top/,
      }),
    ).toBeNull();

    await user.click(
      screen.getByRole('button', { name: UPSCALE_TEXTS.moveJob('wall.png', '60x60') }),
    );
    await waitFor(() => expect(queuedImages()).toEqual(['wall.png', 'brick.png']));
    expect(calls.find((call) => call.path === '/api/command/move-hd-job-to-top')).toEqual({
      path: '/api/command/move-hd-job-to-top',
      method: 'POST',
      body: { id: 'q2' },
    });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows the server's error when the job can no longer be moved (409)", async () => {
    const user = userEvent.setup();
    jobs = jobs.map((job) => (job.status === 'queued' ? { ...job, position: 1 } : job));
    moveAnswer = () => [409, { error: errorText('HD_JOB_NOT_QUEUED_TO_MOVE') }];
    renderScreen();
    await user.click(
      await screen.findByRole('button', { name: UPSCALE_TEXTS.moveJob('brick.png', '30x30') }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      `${UPSCALE_TEXTS.moveFailed('brick.png', '30x30')}: ${shownErrorText('es', 'HD_JOB_NOT_QUEUED_TO_MOVE')}×`,
    );
  });

  it('pauses and resumes the queue, saying what pausing means', async () => {
    const user = userEvent.setup();
    renderScreen();
    await user.click(await screen.findByRole('button', { name: UPSCALE_TEXTS.pause }));
    const notice = await screen.findByRole('status', { name: UPSCALE_TEXTS.queueState });
    expect(notice.textContent).toContain(UPSCALE_TEXTS.paused);
    await user.click(screen.getByRole('button', { name: UPSCALE_TEXTS.resume }));
    await screen.findByRole('button', { name: UPSCALE_TEXTS.pause });
    expect(screen.queryByRole('status', { name: UPSCALE_TEXTS.queueState })).toBeNull();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      '/api/command/pause-hd-queue',
      '/api/command/resume-hd-queue',
    ]);
  });

  it('says so when there are no jobs, and when the list cannot be loaded', async () => {
    jobs = [];
    renderScreen();
    expect(await screen.findByText(UPSCALE_TEXTS.empty)).toBeTruthy();
    cleanup();

    stubFetch(() => [500, { error: 'boom' }]);
    renderScreen();
    expect((await screen.findByRole('alert')).textContent).toContain(UPSCALE_TEXTS.loadFailed);
  });

  it('every table is a real table with column headers', async () => {
    renderScreen();
    await screen.findByRole('region', { name: UPSCALE_TEXTS.groups.running });
    for (const table of screen.getAllByRole('table')) {
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((cell) => cell.textContent),
      ).toEqual(Object.values(UPSCALE_TEXTS.columns));
    }
    await waitFor(() => expect(screen.getAllByRole('table')).toHaveLength(4));
  });
});
