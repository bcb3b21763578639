// @vitest-environment jsdom
import { HD_NOTIFICATION_TEXTS } from '@tessera/contract';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TestProviders, fakeClient, hdJobStore, resetAfterTest, stubFetch } from '../hd/testing';
import type { FakeClient } from '../hd/testing';
import { HdToasts } from './hd-toasts';

let client: FakeClient;

function renderToasts() {
  return render(
    <TestProviders client={client}>
      <HdToasts />
    </TestProviders>,
  );
}

const region = () => screen.getByRole('status', { name: HD_NOTIFICATION_TEXTS.label });
const toast = () => region().querySelector<HTMLElement>('.toast');

beforeEach(() => {
  hdJobStore.reset();
  client = fakeClient();
  stubFetch(({ path }) =>
    path === '/api/query/hd-jobs' ? [200, { jobs: [], paused: false }] : undefined,
  );
});

afterEach(resetAfterTest);

describe('HdToasts', () => {
  it('[H6][H7][H9] shows one toast with the thumbnail and the texts of SPEC §9', () => {
    renderToasts();
    expect(toast()).toBeNull();
    client.emit({ id: 'a', image: 'brick.png', status: 'queued', percent: 0 });
    expect(region().textContent).toBe('HD image generation for brick.png added to queue.');
    expect(toast()?.querySelector('img')?.getAttribute('src')).toBe(
      '/api/images/ld/thumbnail/brick.png',
    );

    client.emit({ id: 'b', image: 'wall.png', status: 'queued', percent: 0 });
    client.emit({ id: 'a', image: 'brick.png', status: 'in_progress', percent: 35 });
    expect(region().querySelectorAll('.toast')).toHaveLength(1);
    expect(region().textContent).toBe('Generating HD... (35%) (Queued: 1)');

    client.emit({ id: 'a', image: 'brick.png', status: 'finished', percent: 100 });
    expect(region().textContent).toBe('HD image generation for brick.png finished.');
  });

  it('after a reload the progress toast counts the jobs the server lists as queued (issue 22, part 10)', async () => {
    const job = (id: string, status: string, position?: number) => ({
      id,
      image: `${id}.png`,
      size: '30x30',
      status,
      percent: 0,
      created_at: '2025-01-01T00:00:00.000Z',
      ...(position === undefined ? {} : { position }),
    });
    stubFetch(({ path }) =>
      path === '/api/query/hd-jobs'
        ? [
            200,
            {
              jobs: [
                job('c', 'queued', 2),
                job('b', 'queued', 1),
                job('a', 'in_progress'),
                job('z', 'finished'),
              ],
              paused: false,
            },
          ]
        : undefined,
    );
    renderToasts();
    // Each progress message tells the count as known then; the list arrives a moment after.
    let percent = 0;
    await vi.waitFor(() => {
      percent += 1;
      client.emit({ id: 'a', image: 'a.png', status: 'in_progress', percent });
      expect(region().textContent).toBe(`Generating HD... (${percent}%) (Queued: 2)`);
    });
  });

  it("[H4] an error toast reads 'Error generating HD image for <image>. Retrying...' and is logged", () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderToasts();
    client.emit({ id: 'a', image: 'brick.png', status: 'error', percent: 0, error: 'engine down' });
    expect(region().textContent).toBe('Error generating HD image for brick.png. Retrying...');
    expect(logged).toHaveBeenCalled();
  });

  it("[H10] an unrecognised message shows 'Unknown status message.' without a thumbnail", () => {
    renderToasts();
    client.emit({ unknown: { status: 'weird' } });
    expect(region().textContent).toBe('Unknown status message.');
    expect(toast()?.querySelector('img')).toBeNull();
  });

  it('[H8] a toast id already shown does not show again', () => {
    renderToasts();
    client.emit({ id: 'a', image: 'brick.png', status: 'in_progress', percent: 10 });
    fireEvent.click(toast() as HTMLElement);
    client.emit({ id: 'a', image: 'brick.png', status: 'in_progress', percent: 10 });
    expect(toast()).toBeNull();
    client.emit({ id: 'a', image: 'brick.png', status: 'in_progress', percent: 11 });
    expect(region().textContent).toBe('Generating HD... (11%) (Queued: 0)');
  });

  it('[H6] never closes by itself, closes on a click, and pauses while hovered', async () => {
    vi.useFakeTimers();
    renderToasts();
    client.emit({ id: 'a', image: 'brick.png', status: 'in_progress', percent: 50 });
    await act(() => vi.advanceTimersByTimeAsync(10 * 60 * 1000));
    const shown = toast() as HTMLElement;
    expect(shown).not.toBeNull();

    expect(shown.dataset['paused']).toBe('false');
    fireEvent.mouseEnter(shown);
    expect(shown.dataset['paused']).toBe('true');
    fireEvent.mouseLeave(shown);
    expect(shown.dataset['paused']).toBe('false');

    fireEvent.click(shown);
    expect(toast()).toBeNull();
  });

  it('[H6] the close button (for keyboards) closes it too', async () => {
    const user = userEvent.setup();
    renderToasts();
    client.emit({ id: 'a', image: 'brick.png', status: 'queued', percent: 0 });
    await user.click(screen.getByRole('button', { name: HD_NOTIFICATION_TEXTS.close }));
    expect(toast()).toBeNull();
  });
});
