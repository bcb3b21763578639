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

/**
 * An explicit full disk: with TESSERA_FAULT_DISK_FULL naming a step, that step fails as a write
 * on a full disk does (a real ENOSPC error, naming the path as Node's would), so a test sees what
 * a user is told without filling a disk. Unset, this is one comparison.
 */
export function diskFullPoint(step: string, path: string): void {
  if (process.env.TESSERA_FAULT_DISK_FULL !== step) return;
  throw Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), {
    code: 'ENOSPC',
    errno: -28,
    syscall: 'write',
    path,
  });
}

/**
 * An explicit pause: with TESSERA_HOLD_POINT naming a step, the process prints `held at <step>`
 * and waits there until a line arrives on its standard input, so a test can act while a job or a
 * backup stands at exactly that step (a backup taken while a job is mid-commit). Everything else
 * the process does goes on meanwhile. Unset, this is one comparison.
 */
export async function holdPoint(step: string): Promise<void> {
  if (process.env.TESSERA_HOLD_POINT !== step) return;
  process.stdout.write(`held at ${step}\n`);
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  // Reading stdin would otherwise keep the process alive once its work is done.
  process.stdin.pause();
  process.stdin.unref?.();
}
