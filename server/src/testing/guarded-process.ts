import { guardProcess } from '../lifecycle/process-guards.js';
import { createLogger } from '../runtime/logger.js';

/**
 * A process with the guards main.ts installs, for lifecycle/process-guards.test.ts (run with
 * tsx): `reject` leaves a promise rejection unhandled, then says `still running` a moment later
 * and exits 0; `throw` throws from a timer (an uncaught exception).
 */
guardProcess(createLogger('info'));
const mode = process.argv[2];
if (mode === 'reject') {
  void Promise.reject(new Error('nobody catches this'));
  setTimeout(() => {
    process.stdout.write('still running\n');
    process.exit(0);
  }, 100);
} else if (mode === 'throw') {
  setTimeout(() => {
    throw new Error('thrown from a timer');
  }, 10);
  // Kept alive: only the guard may end it.
  setInterval(() => undefined, 1000);
} else {
  throw new Error(`Unknown mode '${mode ?? ''}': reject or throw`);
}
