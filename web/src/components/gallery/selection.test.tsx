// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toggled, useSelection } from './selection';

describe('gallery selection', () => {
  it('[D7][D8] toggles file names in and out of the selection', () => {
    const { result } = renderHook(() => useSelection());
    act(() => result.current.toggle('a.png'));
    act(() => result.current.toggle('b.png'));
    expect([...result.current.selected]).toEqual(['a.png', 'b.png']);
    act(() => result.current.toggle('a.png'));
    expect([...result.current.selected]).toEqual(['b.png']);
    act(() => result.current.clear());
    expect(result.current.selected.size).toBe(0);
  });

  it('keeps its callbacks stable, so memoised grid items are not re-rendered by a selection change', () => {
    const { result } = renderHook(() => useSelection());
    const { toggle, clear, remove } = result.current;
    act(() => result.current.toggle('a.png'));
    expect(result.current.toggle).toBe(toggle);
    expect(result.current.clear).toBe(clear);
    expect(result.current.remove).toBe(remove);
  });

  it('removes deleted images and keeps the same set when nothing changes', () => {
    const { result } = renderHook(() => useSelection());
    act(() => result.current.toggle('a.png'));
    act(() => result.current.toggle('b.png'));
    const before = result.current.selected;
    act(() => result.current.remove(['zzz.png']));
    expect(result.current.selected).toBe(before);
    act(() => result.current.remove(['a.png']));
    expect([...result.current.selected]).toEqual(['b.png']);
  });

  it('toggled() returns a new set and leaves the old one alone', () => {
    const start = new Set(['a']);
    const next = toggled(start, 'b');
    expect([...start]).toEqual(['a']);
    expect([...next]).toEqual(['a', 'b']);
  });
});
