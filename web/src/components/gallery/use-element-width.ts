import { useEffect, useState } from 'react';
import type { RefObject } from 'react';

/** The content width of an element, kept up to date as it resizes. */
export function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (typeof ResizeObserver === 'undefined') {
      // jsdom: no layout, so no observer; the width it reports (0) is all there is.
      const frame = requestAnimationFrame(() => setWidth(element.clientWidth));
      return () => cancelAnimationFrame(frame);
    }
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
