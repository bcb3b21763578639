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

const held = new Set<string>();

/**
 * An explicit pause: with TESSERA_FAULT_HOLD naming a step, the first run through that step
 * prints `fault hold: <step>` and waits for SIGUSR2 (then prints `fault released: <step>`), so a
 * test can take a dependency down at a known instant of a job rather than by timing luck. Later
 * runs through the step, and every run with it unset, go straight on: undefined, nothing to await,
 * so the caller's timing is not changed by a tick.
 */
export function holdPoint(step: string): Promise<void> | undefined {
  if (process.env.TESSERA_FAULT_HOLD !== step || held.has(step)) return undefined;
  held.add(step);
  return hold(step);
}

async function hold(step: string): Promise<void> {
  const released = new Promise((resolve) => process.once('SIGUSR2', resolve));
  // A signal listener does not keep a process alive: a CLI with nothing else to do would exit.
  const alive = setInterval(() => undefined, 60_000);
  process.stdout.write(`fault hold: ${step}\n`);
  await released;
  clearInterval(alive);
  process.stdout.write(`fault released: ${step}\n`);
}

/**
 * An explicit missing package: with TESSERA_FAULT_MISSING_MODULE listing package names
 * (comma-separated), loading one of them fails as Node's import of a package that is not installed
 * does (ERR_MODULE_NOT_FOUND), so a test sees what a production install without a development
 * dependency does, or a platform a native package has no binary for. Unset, this is one lookup.
 */
export function missingModulePoint(name: string): void {
  const missing = process.env.TESSERA_FAULT_MISSING_MODULE;
  if (!missing?.split(',').includes(name)) return;
  throw Object.assign(new Error(`Cannot find package '${name}' imported from ${import.meta.url}`), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
}
