/**
 * Explicit crash points for the crash-point suite: with TESSERA_FAULT_POINT naming a step, the
 * process kills itself (SIGKILL, nothing flushed, no handler run) the moment it reaches that
 * step, so a test can stop the server at each step of the commit protocol without timing luck.
 * Unset, this is one comparison.
 */
export function faultPoint(step: string): void {
  if (process.env.TESSERA_FAULT_POINT !== step) return;
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL is not delivered synchronously everywhere: never go past the step meanwhile.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}
