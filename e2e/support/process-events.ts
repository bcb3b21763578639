// Events of processes the test did not start (the local cluster's): their log lines as they are
// written, and their exit, seen through a TCP connection the kernel closes when they die.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The runner's lines once a job's row says it ended (pino's `msg`). */
const JOB_END = /"msg":"job (finished|failed)"/;

export interface JobEndFollower {
  /** Resolves at the next job end line any log of the folder gets after this call. */
  nextJobEnd(): Promise<void>;
  close(): void;
}

/**
 * Follows the log files of a folder (one per process, appended to) by inotify and tells of
 * every job end line written after it started. The processes must log at info.
 */
export function followJobEnds(logs: string): JobEndFollower {
  const offsets = new Map<string, number>();
  for (const name of fs.readdirSync(logs))
    offsets.set(name, fs.statSync(path.join(logs, name)).size);
  let waiters: (() => void)[] = [];

  const readNewLines = (name: string) => {
    const file = path.join(logs, name);
    const from = offsets.get(name) ?? 0;
    const size = fs.existsSync(file) ? fs.statSync(file).size : 0;
    if (size <= from) return;
    const bytes = Buffer.alloc(size - from);
    const fd = fs.openSync(file, 'r');
    try {
      fs.readSync(fd, bytes, 0, bytes.length, from);
    } finally {
      fs.closeSync(fd);
    }
    // Whole lines only: a line written in two parts is read once it is complete.
    const end = bytes.lastIndexOf(0x0a) + 1;
    offsets.set(name, from + end);
    if (!JOB_END.test(bytes.subarray(0, end).toString('utf8'))) return;
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };

  const watcher = fs.watch(logs, (_event, name) => {
    try {
      if (name) readNewLines(name);
    } catch {
      // A log removed as the cluster goes down: nothing more to follow there.
    }
  });
  return {
    nextJobEnd: () => new Promise((resolve) => waiters.push(resolve)),
    close: () => watcher.close(),
  };
}

/**
 * The exit of the HTTP server process at `url`. A process the test did not start gives the test
 * no exit event, but its sockets close when it dies: a keep-alive connection to it (idle, it
 * stays open for the server's keep-alive deadline, 65 s) ends then. Resolves once connected; a
 * refused connection means the process is gone already.
 */
export async function watchExit(url: string): Promise<{ gone: Promise<void> }> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  socket.on('error', () => undefined);
  socket.resume();
  const gone = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => {
    socket.once('connect', () => {
      socket.write(`HEAD / HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
      resolve();
    });
    socket.once('close', () => resolve());
  });
  return { gone };
}
