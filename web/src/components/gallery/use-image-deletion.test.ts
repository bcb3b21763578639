// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DELETE_UNDO_MS, useImageDeletion } from './use-image-deletion';

describe('deleting with a way back', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function deletion() {
    const deleteOne = vi.fn((_filename: string) => Promise.resolve());
    const hook = renderHook(() => useImageDeletion(deleteOne, () => undefined));
    return { deleteOne, hook };
  }

  it('a delete inside the undo window joins the waiting one: one Undo brings both back, nothing sent (issue 22, part 8)', () => {
    const { deleteOne, hook } = deletion();
    act(() => hook.result.current.deleteImages(['a.png']));
    act(() => vi.advanceTimersByTime(200));
    act(() => hook.result.current.deleteImages(['b.png']));
    expect(deleteOne).not.toHaveBeenCalled();
    expect(hook.result.current.pending?.count).toBe(2);
    expect([...hook.result.current.hidden].sort()).toEqual(['a.png', 'b.png']);

    act(() => hook.result.current.pending?.undo());
    expect(hook.result.current.pending).toBeNull();
    expect(hook.result.current.hidden.size).toBe(0);
    act(() => vi.advanceTimersByTime(2 * DELETE_UNDO_MS));
    expect(deleteOne).not.toHaveBeenCalled();
  });

  it('the window starts anew with each delete, and then sends the whole group (issue 22, part 8)', async () => {
    const { deleteOne, hook } = deletion();
    act(() => hook.result.current.deleteImages(['a.png']));
    act(() => vi.advanceTimersByTime(DELETE_UNDO_MS - 100));
    act(() => hook.result.current.deleteImages(['b.png', 'a.png']));
    act(() => vi.advanceTimersByTime(DELETE_UNDO_MS - 100));
    expect(deleteOne).not.toHaveBeenCalled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(100);
    });
    expect(deleteOne.mock.calls.map(([name]) => name).sort()).toEqual(['a.png', 'b.png']);
    expect(hook.result.current.pending).toBeNull();
  });
});
