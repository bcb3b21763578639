import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAKE_BASE_IMAGE = path.join(ROOT, 'deploy/container/make-base-image.sh');
const run = promisify(execFile);
/** Builds print a lot; their output is kept whole for a failure's message. */
const MAX_BUFFER = 256 * 1024 * 1024;
const DOCKERD_START_TIMEOUT_MS = 60_000;

/** Debian's docker.io (the CLI matching its daemon) when installed, else the one on PATH. */
export const DOCKER = fs.existsSync('/usr/bin/docker') ? '/usr/bin/docker' : 'docker';

/**
 * What the container test needs: Debian's docker.io, debootstrap and docker-compose
 * (.ci/run installs them), and root (dockerd, debootstrap). Outside CI a missing part skips the
 * suite with a notice; in CI it fails the run.
 */
export function dockerMissing(): string | undefined {
  const binaries = ['/usr/sbin/dockerd', '/usr/sbin/debootstrap', '/usr/bin/docker-compose'];
  const absent = binaries.find((file) => !fs.existsSync(file));
  const missing = absent
    ? `${absent} not found (apt-get install docker.io debootstrap docker-compose)`
    : process.getuid?.() !== 0
      ? 'not root (dockerd and debootstrap need root)'
      : !fs.existsSync(path.join(ROOT, 'server/dist/main.js'))
        ? 'server/dist is missing: run npm run build first'
        : undefined;
  if (missing === undefined) return undefined;
  if (process.env.CI === 'true') throw new Error(`container test: ${missing}`);
  console.warn(`\n*** Container test SKIPPED: ${missing} ***\n`);
  return missing;
}

/** Runs the docker CLI; rejects with its output when it fails. */
export async function docker(
  args: string[],
  options: { input?: string; timeoutMs?: number; withStderr?: boolean } = {},
): Promise<string> {
  if (options.input !== undefined) return dockerWithInput(args, options.input);
  try {
    const { stdout, stderr } = await run(DOCKER, args, {
      maxBuffer: MAX_BUFFER,
      timeout: options.timeoutMs ?? 120_000,
    });
    // `docker logs` gives the container's stderr on its own stderr.
    return options.withStderr ? `${stdout}${stderr}` : stdout;
  } catch (err) {
    const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
    throw new Error(`docker ${args.join(' ')} failed:\n${tail(stdout)}\n${tail(stderr)}`);
  }
}

function dockerWithInput(args: string[], input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(DOCKER, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    child.stdin.end(input);
    child.on('close', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`docker ${args.join(' ')}: exit ${code}\n${output}`)),
    );
  });
}

function tail(text: string, lines = 60): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

async function daemonAnswers(): Promise<boolean> {
  return run(DOCKER, ['info', '--format', '{{.ServerVersion}}'], { timeout: 10_000 }).then(
    () => true,
    () => false,
  );
}

/**
 * Starts dockerd (no bridge, no iptables: containers use the host's network) unless one
 * answers; resolves with a function that stops the daemon it started (none: a no-op). Ready is
 * the daemon's own log line "API listen on" (its output is kept in a file for a failure).
 */
export async function ensureDockerd(): Promise<() => Promise<void>> {
  if (await daemonAnswers()) return () => Promise.resolve();
  const log = path.join(os.tmpdir(), `tessera-dockerd-${process.pid}.log`);
  const out = fs.createWriteStream(log, { flags: 'a' });
  const daemon = spawn('/usr/sbin/dockerd', ['--bridge=none', '--iptables=false'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => daemon.once('exit', () => resolve()));
  const listening = new Promise<void>((resolve, reject) => {
    // The unfinished last line of what was read, for a line split across two chunks.
    let pending = '';
    const timer = setTimeout(
      () => reject(new Error('no "API listen on" in time')),
      DOCKERD_START_TIMEOUT_MS,
    );
    const read = (chunk: Buffer) => {
      out.write(chunk);
      const text = pending + String(chunk);
      if (text.includes('API listen on')) {
        clearTimeout(timer);
        resolve();
      }
      pending = text.slice(text.lastIndexOf('\n') + 1);
    };
    daemon.stdout.on('data', read);
    daemon.stderr.on('data', read);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`dockerd exited (${daemon.exitCode})`));
    });
  });
  try {
    await listening;
  } catch (err) {
    daemon.kill('SIGKILL');
    await new Promise((resolve) => out.end(resolve));
    throw new Error(`dockerd did not start: ${String(err)}\n${tail(fs.readFileSync(log, 'utf8'))}`);
  }
  return async () => {
    if (daemon.exitCode === null) {
      daemon.kill('SIGTERM');
      await exited;
    }
    out.end();
  };
}

/** The base image the Dockerfile builds on, made from Debian's packages and npm when absent. */
export async function ensureBaseImage(
  tag: string,
  nodeVersion: string,
): Promise<'cached' | 'made'> {
  const present = await docker(['image', 'inspect', tag]).then(
    () => true,
    () => false,
  );
  if (present) return 'cached';
  await run('bash', [MAKE_BASE_IMAGE, tag], {
    env: { ...process.env, NODE_VERSION: nodeVersion },
    maxBuffer: MAX_BUFFER,
    timeout: 1_200_000,
  }).catch((err: unknown) => {
    const { stderr = '' } = err as { stderr?: string };
    throw new Error(`make-base-image.sh failed:\n${tail(stderr)}`);
  });
  return 'made';
}

/** `docker build` of the repository's Dockerfile on the host's network (npm ci reaches npm). */
export async function buildImage(tag: string, baseImage: string): Promise<void> {
  await docker(
    ['build', '--network', 'host', '--build-arg', `BASE_IMAGE=${baseImage}`, '--tag', tag, ROOT],
    { timeoutMs: 2_400_000 },
  );
}

/** `docker-compose config` of a compose file of deploy/compose: the resolved file, or a throw. */
export async function composeConfig(file: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const { stdout } = await run(
    '/usr/bin/docker-compose',
    ['--file', path.join(ROOT, 'deploy/compose', file), 'config'],
    { env: { ...process.env, ...env }, maxBuffer: MAX_BUFFER },
  );
  return stdout;
}

/**
 * The image's Node (the newest 22.x of the npm registry), whatever Node runs the test: from 22
 * on the SQLite driver's binaries come in its npm package, where on Node 20 the build compiles
 * SQLite (minutes). Node 20 is no longer maintained; 22 is the Dockerfile's documented base.
 */
export const IMAGE_NODE_MAJOR = '22';
