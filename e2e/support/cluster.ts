import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLUSTER_SH = `${ROOT}deploy/local/cluster.sh`;
const run = promisify(execFile);

/**
 * What the local cluster (deploy/local/cluster.sh) needs: a built server, Mosquitto with its
 * dynamic-security plugin, psql and a PostgreSQL server. Outside CI a missing part skips the
 * suite with a notice; in CI it fails the run.
 */
export async function clusterMissing(): Promise<string | undefined> {
  const config = `${ROOT}server/dist/config.js`;
  const missing = fs.existsSync(config)
    ? await findMissing()
    : `${config} is missing: run npm run build first`;
  if (missing === undefined) return undefined;
  if (process.env.CI === 'true') throw new Error(`cluster test: ${missing}`);
  console.warn(`\n*** Cluster test SKIPPED: ${missing} ***\n`);
  return missing;
}

async function findMissing(): Promise<string | undefined> {
  const binaries = [
    '/usr/sbin/mosquitto',
    '/usr/bin/mosquitto_ctrl',
    '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so',
    '/usr/bin/psql',
  ];
  const absent = binaries.find((file) => !fs.existsSync(file));
  if (absent) return `${absent} not found (apt-get install mosquitto postgresql-client)`;
  const pgUrl = process.env.CLUSTER_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  try {
    await run('psql', [pgUrl, '-qAtc', 'select 1']);
  } catch {
    return `no PostgreSQL answers at ${pgUrl}`;
  }
  return undefined;
}

export interface Cluster {
  dataDir: string;
  /** ROLE=server processes (server-1, ...); empty with CLUSTER_SERVERS=0. */
  serverUrls: string[];
  /** ROLE=web processes (web-1, ...), with CLUSTER_WEBS. */
  webUrls: string[];
  webPids: number[];
  mqttPublicUrl: string;
  usersCmd: string;
  databaseUrl: string;
  s3Dir: string;
  serverPids: number[];
  workerPids: number[];
  logs: string;
  /** Processes `clusterRestart` started (down must stop them too). */
  restartedPids: number[];
  /** Every KEY=value line `up` printed. */
  values: Record<string, string>;
}

/** `cluster.sh up` with these settings added to this process's environment. */
export async function clusterUp(env: Record<string, string> = {}): Promise<Cluster> {
  const { stdout } = await run('bash', [CLUSTER_SH, 'up'], {
    env: { ...process.env, DATA_DIR: '', ...env },
    timeout: 180_000,
  });
  const values: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line);
    if (match?.[1] && match[2] !== undefined) values[match[1]] = match[2];
  }
  const need = (key: string): string => {
    const value = values[key];
    if (!value) throw new Error(`cluster.sh up printed no ${key}:\n${stdout}`);
    return value;
  };
  const pids = (key: string) => need(key).split(',').map(Number);
  const list = (key: string) => (values[key] ?? '').split(',').filter(Boolean);
  return {
    dataDir: need('DATA_DIR'),
    serverUrls: list('SERVER_URLS'),
    webUrls: list('WEB_URLS'),
    webPids: list('WEB_PIDS').map(Number),
    mqttPublicUrl: need('MQTT_PUBLIC_URL'),
    usersCmd: need('USERS_CMD'),
    databaseUrl: need('DATABASE_URL'),
    s3Dir: need('S3_DIR'),
    serverPids: list('SERVER_PIDS').map(Number),
    workerPids: pids('WORKER_PIDS'),
    logs: need('LOGS'),
    restartedPids: [],
    values,
  };
}

/** `cluster.sh down`, which must leave none of the processes `up` started running. */
export async function clusterDown(cluster: Cluster): Promise<void> {
  await run('bash', [CLUSTER_SH, 'down', cluster.dataDir], { timeout: 60_000 });
  const started = [
    ...cluster.serverPids,
    ...cluster.webPids,
    ...cluster.workerPids,
    ...cluster.restartedPids,
    Number(cluster.values.MOSQUITTO_PID),
    Number(cluster.values.S3_PID),
  ];
  const survivors = started.filter(isRunning);
  // Nothing may outlive the test run, whatever the verdict.
  for (const pid of survivors) process.kill(pid, 'SIGKILL');
  if (survivors.length > 0) {
    throw new Error(`cluster.sh down left processes running: ${survivors.join(', ')}`);
  }
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `cluster.sh restart NAME` from an environment that has none of the cluster's settings (as a
 * hand restart in another shell): the process is started again from what it was given at `up`.
 */
export async function clusterRestart(
  cluster: Cluster,
  name: string,
): Promise<{ pid: number; url?: string }> {
  const bare = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' };
  const { stdout } = await run('bash', [CLUSTER_SH, 'restart', name, cluster.dataDir], {
    env: bare,
    timeout: 180_000,
  });
  const pid = Number(/^PID=(\d+)$/m.exec(stdout)?.[1]);
  if (!Number.isInteger(pid)) throw new Error(`cluster.sh restart printed no PID:\n${stdout}`);
  cluster.restartedPids.push(pid);
  const url = /^URL=(\S+)$/m.exec(stdout)?.[1];
  return { pid, ...(url !== undefined && { url }) };
}

/** The environment a running process was started with (/proc/PID/environ). */
export function environmentOf(pid: number): Record<string, string> {
  const entries = fs
    .readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .filter(Boolean)
    .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]);
  return Object.fromEntries(entries) as Record<string, string>;
}

/** Adds a user with `npm run users -- add` as the cluster's USERS_CMD runs it. */
export function addUser(cluster: Cluster, username: string, password: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cluster.usersCmd, ['add', username], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    child.stdin.end(`${password}\n`);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`users add ${username}: ${code} ${output}`)),
    );
  });
}

/** The rows of a query on the cluster's database, read with psql as JSON. */
export async function queryRows<T>(cluster: Cluster, query: string): Promise<T[]> {
  const { stdout } = await run('psql', [
    cluster.databaseUrl,
    '-qAt',
    '-v',
    'ON_ERROR_STOP=1',
    '-c',
    `select coalesce(json_agg(t), '[]'::json) from (${query}) t`,
  ]);
  return JSON.parse(stdout) as T[];
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The last lines of every log of the cluster, for a failure's message. */
export function logTails(cluster: Cluster, lines = 30): string {
  if (!fs.existsSync(cluster.logs)) return '';
  return fs
    .readdirSync(cluster.logs)
    .map((name) => {
      const text = fs.readFileSync(`${cluster.logs}/${name}`, 'utf8').trimEnd().split('\n');
      return `--- ${name}\n${text.slice(-lines).join('\n')}`;
    })
    .join('\n');
}
