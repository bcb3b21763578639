/**
 * The deadline of an upload or download: it moves on with every chunk and fires only when the
 * transfer stalls, so a 400 MB HD image on a slow link is not cut off while bytes keep coming.
 */

/** A deadline that moves on with every touch(): it fires only when a transfer stalls. */
export interface IdleDeadline {
  signal: AbortSignal;
  touch(): void;
  stop(): void;
}

export function idleDeadline(ms: number): IdleDeadline {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(timer);
    if (controller.signal.aborted) return;
    timer = setTimeout(() => controller.abort(new Error('idle')), ms);
  };
  touch();
  return { signal: controller.signal, touch, stop: () => clearTimeout(timer) };
}

/**
 * A stream that touches `idle` with each chunk and stops it at the end; when the idle deadline
 * ends it, it fails with `stalled()` rather than a bare abort.
 */
export function watched(
  body: ReadableStream<Uint8Array>,
  idle: IdleDeadline,
  stalled: () => Error,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          idle.stop();
          controller.close();
          return;
        }
        idle.touch();
        controller.enqueue(value);
      } catch (error) {
        idle.stop();
        controller.error(idle.signal.aborted ? stalled() : error);
      }
    },
    cancel(reason) {
      idle.stop();
      return reader.cancel(reason);
    },
  });
}
