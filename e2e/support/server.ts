import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = path.join(ROOT, 'server/dist/main.js');

export interface RunningServer {
  url: string;
  adminPassword: string;
  dataDir: string;
  output: () => string;
  /** Stops the process (SIGTERM) and starts it again on the same port and data, as an update would. */
  restart(): Promise<void>;
  /** Sends the process a signal (SIGUSR2 lets a fault hold go on: server/src/runtime/faults.ts). */
  signal(name: NodeJS.Signals): void;
  stop(): Promise<void>;
}

/**
 * Starts the built server (`npm run build` first) as a user would, on a free port with a fresh
 * data folder, and reads the address and the first-start admin password from what it prints.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build first`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-e2e-'));
  let running = await launch(dataDir, { PORT: '0', ...env }).catch((err: unknown) => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  });
  const first = running.output();
  const url = /Tessera is running at (http:\/\/\S+)/.exec(first)?.[1] ?? '';
  const adminPassword = /created user 'admin' with password (\S+)/.exec(first)?.[1] ?? '';
  return {
    url,
    adminPassword,
    dataDir,
    output: () => running.output(),
    async restart() {
      await terminate(running.child);
      running = await launch(dataDir, { ...env, PORT: new URL(url).port });
    },
    signal(name) {
      running.child.kill(name);
    },
    async stop() {
      await terminate(running.child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One server process on `dataDir`, once it says it is running. */
async function launch(
  dataDir: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  try {
    await until(
      child,
      () => /Tessera is running at/.test(output),
      () => output,
    );
  } catch (err) {
    await terminate(child);
    throw err;
  }
  return { child, output: () => output };
}

function until(
  child: ChildProcess,
  ready: () => boolean,
  output: () => string,
  timeoutMs = 30_000,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => done(new Error(`server did not start:\n${output()}`)),
      timeoutMs,
    );
    const check = () => ready() && done();
    const onExit = (code: number | null) =>
      done(new Error(`server exited with ${code}:\n${output()}`));
    function done(err?: Error) {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve();
    }
    child.stdout?.on('data', check);
    child.once('exit', onExit);
  });
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
