// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useKeptPlaces } from './use-kept-places';

describe('kept places', () => {
  it('keeps a deleted image in place while the pointer is over the gallery, until it leaves (issue 22, part 8)', () => {
    const hook = renderHook(({ hidden }) => useKeptPlaces(hidden), {
      initialProps: { hidden: new Set<string>() as ReadonlySet<string> },
    });
    // Deleted with the pointer elsewhere: no place is kept.
    hook.rerender({ hidden: new Set(['a.png']) });
    expect(hook.result.current.kept.size).toBe(0);

    act(() => hook.result.current.pointerHandlers.onPointerOver());
    hook.rerender({ hidden: new Set(['a.png', 'b.png']) });
    expect([...hook.result.current.kept]).toEqual(['b.png']);
    act(() => hook.result.current.pointerHandlers.onPointerLeave());
    expect(hook.result.current.kept.size).toBe(0);
  });
});
