import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * A PostgreSQL of the test's own, from Debian's binaries, on a free loopback port: unlike the
 * shared test PostgreSQL, it may be killed (SIGKILL, as a crash or a failover does) and started
 * again on the same port and data. Run as root, it runs as the `postgres` account, which
 * PostgreSQL requires.
 */

const ROOT = '/usr/lib/postgresql';
const READY = /database system is ready to accept connections/;
const START_TIMEOUT_MS = 60_000;

function binDir(): string | undefined {
  const versions = fs.existsSync(ROOT)
    ? fs
        .readdirSync(ROOT)
        .filter((name) => fs.existsSync(path.join(ROOT, name, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions[0] === undefined ? undefined : path.join(ROOT, versions[0], 'bin');
}

const BIN = binDir();

/** Why an own PostgreSQL cannot be run here; undefined when it can. */
export const ownPostgresMissing: string | undefined = BIN
  ? undefined
  : `no PostgreSQL server binaries under ${ROOT} (Debian's postgresql package)`;

export interface OwnPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust). */
  url: string;
  /** SIGKILLs the server and resolves once it is gone: every connection drops at once. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it for good and removes its data. */
  remove(): Promise<void>;
}

function account(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error('no postgres account to run as');
  return { uid: Number(uid), gid: Number(gid) };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  if (!BIN) throw new Error(ownPostgresMissing);
  const bin = BIN;
  const user = account();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-own-pg-'));
  const data = path.join(dir, 'data');
  if (user) fs.chownSync(dir, user.uid, user.gid);
  await promisify(execFile)(
    path.join(bin, 'initdb'),
    ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'],
    { ...user },
  );
  const port = await freePort();
  let server: ChildProcess | undefined;
  const killOnExit = () => server?.kill('SIGKILL');
  process.once('exit', killOnExit);

  const start = async () => {
    const child = spawn(
      path.join(bin, 'postgres'),
      ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'],
      { ...user, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => fail(`not ready within ${START_TIMEOUT_MS} ms`),
        START_TIMEOUT_MS,
      );
      function fail(why: string) {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new Error(`PostgreSQL ${why}:\n${output}`));
      }
      child.stderr?.on('data', (chunk) => {
        output += String(chunk);
        if (!READY.test(output)) return;
        clearTimeout(timer);
        resolve();
      });
      child.once('exit', (code) => fail(`exited with ${code} at start`));
    });
    child.stderr?.resume();
    server = child;
  };

  const kill = async () => {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  };

  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    kill,
    start,
    async remove() {
      await kill();
      process.off('exit', killOnExit);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
