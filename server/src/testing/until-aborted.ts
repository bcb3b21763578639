/**
 * A job that runs until it is stopped: rejects when `signal` aborts, at once if it already has.
 * An engine stand-in that only listened for the event hung forever when the server stopped
 * between the job's start and the engine's call (the abort had come and gone), and the server's
 * stop waited on it.
 */
export function untilAborted(signal: AbortSignal, error?: Error): Promise<never> {
  const reason = () => error ?? (signal.reason as Error);
  return new Promise<never>((_resolve, reject) => {
    if (signal.aborted) reject(reason());
    else signal.addEventListener('abort', () => reject(reason()), { once: true });
  });
}
