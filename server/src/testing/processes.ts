import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('..', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one of the server's TypeScript entry points (via tsx) as its own process. */
export function spawnEntry(entry: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', `${SRC}${entry}`, ...args], {
    // No drain at SIGTERM unless a test asks: nothing balances load in front of test processes.
    env: { ...process.env, LOG_LEVEL: 'warn', SHUTDOWN_DRAIN_MS: '0', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

export function runEntry(
  entry: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin = '',
): Promise<RunResult> {
  const child = spawnEntry(entry, args, env);
  child.stdin?.end(stdin);
  return finished(child);
}

export function finished(child: ChildProcess): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => (stdout += String(d)));
  child.stderr?.on('data', (d) => (stderr += String(d)));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Everything a process prints, kept from its start so no line is missed between waits. */
export function captureOutput(child: ChildProcess) {
  let seen = '';
  child.stdout?.on('data', (d) => (seen += String(d)));
  child.stderr?.on('data', (d) => (seen += String(d)));
  return {
    text: () => seen,
    /** Resolves at the first match of `pattern` in what the process prints after this call. */
    printedNext(pattern: RegExp): Promise<void> {
      const from = seen.length;
      return new Promise((resolve) => {
        const check = () => {
          if (!pattern.test(seen.slice(from))) return;
          child.stdout?.off('data', check);
          resolve();
        };
        child.stdout?.on('data', check);
      });
    },
    /** Resolves with the first match of `pattern` in what the process has printed so far or later. */
    waitFor(pattern: RegExp, timeoutMs = 30_000): Promise<RegExpMatchArray> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = seen.match(pattern);
          if (!match) return;
          cleanup();
          resolve(match);
        };
        const onExit = (code: number | null) => {
          cleanup();
          reject(new Error(`exited with ${code} before ${pattern}:\n${seen}`));
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${pattern} in output:\n${seen}`));
        }, timeoutMs);
        function cleanup() {
          clearTimeout(timer);
          child.stdout?.off('data', check);
          child.off('exit', onExit);
        }
        child.stdout?.on('data', check);
        child.once('exit', onExit);
        check();
      });
    },
  };
}

/** The runner's line once a job's row says it ended: the event tests await a job's end on. */
export const JOB_END_LINE = /"msg":"job (finished|failed)"/;

/**
 * The server program (main.ts) as its own process on a free port of 127.0.0.1, on `dataDir`, with
 * the fast built-in upscaler; resolves once it says its address. LOG_LEVEL info: for the runner's
 * job lines, the events tests wait on. `env` adds to or overrides these (a fault point, a hold).
 */
export async function startServerProcess(dataDir: string, env: NodeJS.ProcessEnv = {}) {
  const server = spawnEntry('main.ts', [], {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    BUILTIN_UPSCALER: 'lanczos',
    LOG_LEVEL: 'info',
    ...env,
  });
  const done = finished(server);
  const output = captureOutput(server);
  // A tsx start on a loaded machine can take half a minute.
  const [, url = ''] = await output.waitFor(/Tessera is running at (http:\/\/\S+)/, 120_000);
  return { server, url, output, done, nextJobEnd: () => output.printedNext(JOB_END_LINE) };
}

export type ServerProcess = Awaited<ReturnType<typeof startServerProcess>>;
