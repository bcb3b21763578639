import type { Logger } from 'pino';

/**
 * The last line of defence against an error no code caught (issue 23, part 10), so none ends the
 * process without a log line (docs/reliability.md, "Dependency outages"):
 *
 * - an unhandled promise rejection is logged and the process keeps running: the rejected chain
 *   was already detached from everything else, nothing was left half-changed on the way, and
 *   what a job or request had not saved comes back by the store's own rules (leases, start-up
 *   repairs). Node's default, exiting, turned one missing `catch` into every process down;
 * - an uncaught exception is logged and the process exits with 1 for its supervisor (systemd,
 *   the container runtime) to start it again: a synchronous throw escaped to the event loop may
 *   have stopped code halfway through changing shared state in memory, which nothing can check.
 *
 * Returns the function that removes the guards.
 */
export function guardProcess(log: Logger, exit: (code: number) => void = process.exit): () => void {
  const onRejection = (reason: unknown) => {
    log.error({ err: reason }, 'unhandled promise rejection (a bug): logged, the process goes on');
  };
  const onException = (err: Error) => {
    log.fatal({ err }, 'uncaught exception: exiting for the supervisor to restart the process');
    exit(1);
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
