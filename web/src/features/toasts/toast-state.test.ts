import { TEXTS } from '@tessera/contract';
import type { HdStatusMessage } from '@tessera/contract';
import { describe, expect, it } from 'vitest';
import { hdStatus } from '../hd/testing';
import {
  INITIAL_TOAST_STATE,
  SHOWN_IDS_KEPT,
  seedQueue,
  toastId,
  toastReducer,
  toastText,
  trackQueue,
} from './toast-state';
import type { ToastState } from './toast-state';

/** A status message about brick.png. */
function message(overrides: Partial<HdStatusMessage>): HdStatusMessage {
  return hdStatus({ image: 'brick.png', ...overrides });
}

function receive(state: ToastState, ...messages: HdStatusMessage[]): ToastState {
  return messages.reduce(
    (current, next) =>
      toastReducer(current, { type: 'event', event: { kind: 'status', message: next } }),
    state,
  );
}

describe('toast state', () => {
  it('[H9] shows the SPEC §9 texts', () => {
    expect(toastText(message({ status: 'queued' }), 0)).toBe(
      'HD image generation for brick.png added to queue.',
    );
    expect(toastText(message({ status: 'in_progress', percent: 37 }), 2)).toBe(
      'Generating HD... (37%) (Queued: 2)',
    );
    expect(toastText(message({ status: 'finished', percent: 100 }), 0)).toBe(
      'HD image generation for brick.png finished.',
    );
    expect(toastText(message({ status: 'error' }), 0)).toBe(
      'Error generating HD image for brick.png. Retrying...',
    );
  });

  it('[H10] an unrecognised message shows "Unknown status message."', () => {
    const state = toastReducer(INITIAL_TOAST_STATE, {
      type: 'event',
      event: { kind: 'unknown', payload: { what: 'ever' } },
    });
    expect(state.toast).toMatchObject({ kind: 'unknown', text: TEXTS.unknownStatus });
    expect(state.toast?.image).toBeUndefined();
  });

  it('[H5] queue tracking: added on queued when not listed, removed on any other status', () => {
    let queued = trackQueue([], message({ id: 'a' }));
    expect(queued).toEqual(['a']);
    expect(trackQueue(queued, message({ id: 'a' }))).toBe(queued);
    queued = trackQueue(queued, message({ id: 'b' }));
    expect(queued).toEqual(['a', 'b']);
    queued = trackQueue(queued, message({ id: 'a', status: 'in_progress', percent: 1 }));
    expect(queued).toEqual(['b']);
    queued = trackQueue(queued, message({ id: 'b', status: 'error' }));
    expect(queued).toEqual([]);
    const unchanged = ['c'];
    expect(trackQueue(unchanged, message({ id: 'z', status: 'finished' }))).toBe(unchanged);
  });

  it('[H5][H9] the progress toast counts the jobs still waiting', () => {
    const state = receive(
      INITIAL_TOAST_STATE,
      message({ id: 'a', image: 'a.png' }),
      message({ id: 'b', image: 'b.png' }),
      message({ id: 'c', image: 'c.png' }),
      message({ id: 'a', image: 'a.png', status: 'in_progress', percent: 10 }),
    );
    expect(state.queuedIds).toEqual(['b', 'c']);
    expect(state.toast?.text).toBe('Generating HD... (10%) (Queued: 2)');
    expect(state.toast?.image).toBe('a.png');
  });

  it('the queue listed on load is counted, but a status heard meanwhile wins (issue 22, part 10)', () => {
    const heard = receive(
      INITIAL_TOAST_STATE,
      message({ id: 'a', image: 'a.png' }),
      message({ id: 'b', image: 'b.png', status: 'in_progress', percent: 5 }),
    );
    // The list was read before b started: b no longer waits, a is not counted twice.
    const seeded = seedQueue(heard, ['b', 'a', 'c', 'd']);
    expect(seeded.queuedIds).toEqual(['a', 'c', 'd']);
    expect(seedQueue(seeded, ['c'])).toBe(seeded);
    const next = receive(
      seeded,
      message({ id: 'b', image: 'b.png', status: 'in_progress', percent: 6 }),
    );
    expect(next.toast?.text).toBe('Generating HD... (6%) (Queued: 3)');
    const reloaded = toastReducer(INITIAL_TOAST_STATE, { type: 'queue-listed', ids: ['x', 'y'] });
    expect(reloaded.queuedIds).toEqual(['x', 'y']);
    expect(reloaded.toast).toBeNull();
  });

  it('[H8] the toast id is the image id and status, plus the percent for in_progress', () => {
    expect(toastId(message({ status: 'queued' }))).toBe('job-1:queued');
    expect(toastId(message({ status: 'in_progress', percent: 20 }))).toBe('job-1:in_progress:20');
    expect(toastId(message({ status: 'finished', percent: 100 }))).toBe('job-1:finished');
  });

  it('[H8] a toast id is shown once; a new percent is a new toast', () => {
    const first = receive(INITIAL_TOAST_STATE, message({ status: 'in_progress', percent: 20 }));
    const dismissed = toastReducer(first, { type: 'dismiss' });
    const again = receive(dismissed, message({ status: 'in_progress', percent: 20 }));
    expect(again.toast).toBeNull();
    const next = receive(again, message({ status: 'in_progress', percent: 21 }));
    expect(next.toast?.text).toBe('Generating HD... (21%) (Queued: 0)');
    expect(next.toast?.seq).toBeGreaterThan(first.toast?.seq ?? 0);
  });

  it('[H6] one toast at a time: a new status replaces the one shown', () => {
    const state = receive(
      INITIAL_TOAST_STATE,
      message({ status: 'queued' }),
      message({ status: 'finished', percent: 100 }),
    );
    expect(state.toast).toMatchObject({
      kind: 'finished',
      text: 'HD image generation for brick.png finished.',
    });
  });

  it('[H6] closes only on dismiss; hovering pauses and leaving resumes', () => {
    const shown = receive(INITIAL_TOAST_STATE, message({ status: 'queued' }));
    const hovered = toastReducer(shown, { type: 'hover', paused: true });
    expect(hovered.paused).toBe(true);
    expect(hovered.toast).toEqual(shown.toast);
    expect(toastReducer(hovered, { type: 'hover', paused: false }).paused).toBe(false);
    const closed = toastReducer(hovered, { type: 'dismiss' });
    expect(closed.toast).toBeNull();
    expect(closed.paused).toBe(false);
    expect(toastReducer(closed, { type: 'dismiss' })).toBe(closed);
  });

  it('remembers a bounded number of toast ids', () => {
    let state = INITIAL_TOAST_STATE;
    for (let i = 0; i <= SHOWN_IDS_KEPT; i++) state = receive(state, message({ id: `job-${i}` }));
    expect(state.shownIds).toHaveLength(SHOWN_IDS_KEPT);
    expect(state.shownIds[0]).toBe('job-1:queued');
  });

  it('tells a cancelled job as cancelled, not as a failure to retry, and counts it out of the queue (issue 22, part 9)', () => {
    const state = receive(
      INITIAL_TOAST_STATE,
      message({ id: 'a', status: 'queued' }),
      message({ id: 'b', status: 'queued' }),
      message({ id: 'b', status: 'error', reason: 'cancelled' }),
    );
    expect(state.queuedIds).toEqual(['a']);
    expect(state.toast?.text).toBe(TEXTS.hdCancelledToast('brick.png'));
    // Shown as a notice, not in the colour of a failure.
    expect(state.toast?.kind).toBe('notice');
    expect(toastText(message({ status: 'error', reason: 'already-ordered' }), 0)).toBe(
      TEXTS.hdAlreadyOrderedToast('brick.png'),
    );
  });
});
