import { useLayoutEffect, useState } from 'react';

/** What the toast must never cover: a screen's search and sort bar (the Dashboard's). */
const KEEP_CLEAR = '[role="search"]';
/** The space between the toast and the window's top, or the bar above it. */
export const TOAST_GAP_PX = 16;

/** The lowest bottom edge of the bars on screen, or 0 without one. */
function barsBottom(): number {
  let bottom = 0;
  for (const bar of document.querySelectorAll(KEEP_CLEAR)) {
    const box = bar.getBoundingClientRect();
    if (box.width > 0 && box.height > 0) bottom = Math.max(bottom, box.bottom);
  }
  return bottom;
}

/**
 * The toast's distance from the window's top while `shown`: below any search bar on screen, so
 * the person can still search and sort while a toast stays (it never closes by itself). The bar
 * belongs to another screen and may wrap, appear or move, so it is measured, not assumed.
 */
export function useClearTop(shown: boolean): number {
  const [top, setTop] = useState(TOAST_GAP_PX);
  // Measured before paint, so a new toast never shows over the bar first.
  useLayoutEffect(() => {
    if (!shown || typeof ResizeObserver === 'undefined') return;
    let frame = 0;
    const resized = new ResizeObserver(() => schedule());
    const observed = new Set<Element>();
    function measure() {
      for (const bar of document.querySelectorAll(KEEP_CLEAR)) {
        if (!observed.has(bar)) {
          observed.add(bar);
          resized.observe(bar);
        }
      }
      setTop(barsBottom() + TOAST_GAP_PX);
    }
    function schedule() {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(measure);
    }
    // Screens change under the toast (a route, a wrapped toolbar row, a selection bar above).
    const changed = new MutationObserver(schedule);
    changed.observe(document.body, { childList: true, subtree: true });
    window.addEventListener('resize', schedule);
    document.addEventListener('scroll', schedule, { capture: true, passive: true });
    measure();
    return () => {
      cancelAnimationFrame(frame);
      resized.disconnect();
      changed.disconnect();
      window.removeEventListener('resize', schedule);
      document.removeEventListener('scroll', schedule, { capture: true });
    };
  }, [shown]);
  return top;
}
