import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { connectDynamicSecurity } from '../broker/dynamic-security.js';
import type { ExternalBrokerSettings } from '../broker/settings.js';
import { MosquittoUserProvisioning } from '../broker/user-provisioning.js';

/**
 * A real Mosquitto for tests, configured from deploy/mosquitto exactly as shipped: only the two
 * listener ports and the path of the dynamic-security file are changed. Its logins are made as
 * an operator would: `mosquitto_ctrl dynsec init` for the service principal, Tessera's own
 * provisioning for everyone else.
 */

const MOSQUITTO = '/usr/sbin/mosquitto';
const MOSQUITTO_CTRL = '/usr/bin/mosquitto_ctrl';
const DYNSEC_PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so';
/** deploy/mosquitto, three levels above this file (server/src/testing). */
const DEPLOY_DIR = fileURLToPath(new URL('../../../deploy/mosquitto/', import.meta.url));
const DEPLOY_TCP_PORT = 1883;
const DEPLOY_WS_PORT = 9001;
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;
/**
 * Mosquitto's line once it has opened every listener (before serving): deploy/mosquitto's config
 * logs information to stderr, which deriveConfig checks.
 */
const RUNNING_LINE = /mosquitto version \S+ running/;
/** How much of the broker's output is kept for error messages. */
const MAX_OUTPUT_CHARS = 64 * 1024;

function findMissingBinary(): string | undefined {
  return [MOSQUITTO, MOSQUITTO_CTRL, DYNSEC_PLUGIN].find((file) => !fs.existsSync(file));
}

const missing = findMissingBinary();
if (missing !== undefined) {
  // The Mosquitto suite is mandatory in CI: a missing broker must fail the run, not hide in it.
  if (process.env.CI === 'true') {
    throw new Error(`${missing} not found: CI must install Debian's mosquitto package`);
  }
  console.warn(`*** Mosquitto tests SKIPPED: ${missing} not found ***`);
}

/** True when Mosquitto, mosquitto_ctrl and the plugin are installed; the suite runs only then. */
export const mosquittoAvailable: boolean = missing === undefined;

export interface RunningMosquitto {
  /** The plain MQTT listener, as the Tessera server's MQTT_URL would name it. */
  tcpUrl: string;
  /** The WebSocket listener, as browsers reach it (PUBLIC_MQTT_URL). */
  wsUrl: string;
  /** Stops the broker and starts it again on the same ports (all sessions are lost). */
  restart(): Promise<void>;
  /** SIGKILLs the broker (a crash: nothing flushed, every connection drops) and waits for it. */
  kill(): Promise<void>;
  /** Starts a killed broker again on the same ports, config and logins. */
  start(): Promise<void>;
  /** Stops the broker (SIGTERM, SIGKILL after 5 s) and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Tessera's settings for this Mosquitto as its external broker (MQTT_URL, PUBLIC_MQTT_URL), the
 * service logging in as `service` and provisioning users' logins through the plugin.
 */
export function externalBrokerOf(
  broker: RunningMosquitto,
  service: { username: string; password: string },
): ExternalBrokerSettings {
  return {
    url: broker.tcpUrl,
    username: service.username,
    password: service.password,
    publicUrl: broker.wsUrl,
    publicProtocolVersion: 5,
    userProvisioning: 'dynamic-security',
  };
}

export interface MosquittoUser {
  username: string;
  password: string;
}

/**
 * Starts Mosquitto on free ports with deploy/mosquitto's config, `service` as the
 * dynamic-security admin (as `mosquitto_ctrl dynsec init` makes it) and these users provisioned
 * by Tessera's {@link MosquittoUserProvisioning}.
 */
export async function startMosquitto(
  service: MosquittoUser,
  users: MosquittoUser[] = [],
): Promise<RunningMosquitto> {
  if (!mosquittoAvailable) throw new Error(`${missing} not found`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-mosquitto-'));
  try {
    const dynsecFile = path.join(dir, 'dynsec.json');
    await promisify(execFile)(MOSQUITTO_CTRL, [
      'dynsec',
      'init',
      dynsecFile,
      service.username,
      service.password,
    ]);
    // Run as root, Mosquitto drops to the `mosquitto` user, which rewrites the plugin's file.
    fs.chmodSync(dir, 0o755);
    if (process.getuid?.() === 0) {
      const { uid, gid } = mosquittoAccount();
      fs.chownSync(dir, uid, gid);
      fs.chownSync(dynsecFile, uid, gid);
    }
    const deployed = fs.readFileSync(path.join(DEPLOY_DIR, 'mosquitto.conf'), 'utf8');

    let lastError: unknown;
    // A port found free may be taken by someone else before Mosquitto binds it: try new ones.
    for (let attempt = 0; attempt < 3; attempt++) {
      const [tcpPort, wsPort] = await twoFreePorts();
      const configFile = path.join(dir, 'mosquitto.conf');
      fs.writeFileSync(configFile, deriveConfig(deployed, dynsecFile, tcpPort, wsPort));
      fs.chmodSync(configFile, 0o644);
      try {
        const broker = await runBroker(dir, configFile, tcpPort, wsPort);
        await provision(broker.tcpUrl, service, users).catch(async (err: unknown) => {
          await broker.stop();
          throw err;
        });
        return broker;
      } catch (err) {
        lastError = err;
        if (!(err instanceof StartError && /address already in use/i.test(err.output))) break;
      }
    }
    throw lastError;
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** The shipped config with only the listener ports and the plugin's file changed. */
function deriveConfig(
  deployed: string,
  dynsecFile: string,
  tcpPort: number,
  wsPort: number,
): string {
  const replacements: [RegExp, string][] = [
    [new RegExp(`^(listener\\s+)${DEPLOY_TCP_PORT}\\b`, 'gm'), `$1${tcpPort}`],
    [new RegExp(`^(listener\\s+)${DEPLOY_WS_PORT}\\b`, 'gm'), `$1${wsPort}`],
    [/^(plugin_opt_config_file\s+).*$/gm, `$1${dynsecFile}`],
  ];
  let config = deployed;
  for (const [pattern, replacement] of replacements) {
    const matches = config.match(pattern)?.length ?? 0;
    if (matches !== 1) {
      throw new Error(`deploy/mosquitto/mosquitto.conf: expected one line matching ${pattern}`);
    }
    config = config.replace(pattern, replacement);
  }
  if (!/^log_type (information|all)$/m.test(config) || !/^log_dest std(err|out)$/m.test(config)) {
    throw new Error('deploy/mosquitto/mosquitto.conf: tests wait for its information log lines');
  }
  if (!config.includes(`plugin ${DYNSEC_PLUGIN}`)) {
    throw new Error(`deploy/mosquitto/mosquitto.conf: expected the plugin ${DYNSEC_PLUGIN}`);
  }
  return config;
}

/** The users' logins, made the way Tessera makes them (a stand-in hash marks their password). */
async function provision(url: string, service: MosquittoUser, users: MosquittoUser[]) {
  const provisioning = new MosquittoUserProvisioning(
    connectDynamicSecurity({ url, ...service }),
    service.username,
  );
  try {
    await provisioning.reconcile([]);
    for (const { username, password } of users) {
      await provisioning.passwordSet(username, password, `test-hash-of-${password}`);
    }
  } finally {
    await provisioning.close();
  }
}

function mosquittoAccount(): { uid: number; gid: number } {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('mosquitto:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined)
    throw new Error('no mosquitto account on this machine');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Two different ports free on 127.0.0.1 right now (the first is held while finding the second). */
async function twoFreePorts(): Promise<[number, number]> {
  const listen = async () => {
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    return server;
  };
  const portOf = (server: net.Server) => (server.address() as net.AddressInfo).port;
  const close = (server: net.Server) => new Promise((resolve) => server.close(resolve));
  const first = await listen();
  try {
    const second = await listen();
    const ports: [number, number] = [portOf(first), portOf(second)];
    await close(second);
    return ports;
  } finally {
    await close(first);
  }
}

class StartError extends Error {
  override name = 'StartError';
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(`${message}\n--- mosquitto output ---\n${output}`);
  }
}

interface Process {
  child: ChildProcess;
  output: () => string;
  /** Resolves once it logged that every listener is open. */
  running: Promise<void>;
  exited: Promise<void>;
}

function spawnBroker(configFile: string): Process {
  const child = spawn(MOSQUITTO, ['-c', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let isRunning: () => void = () => undefined;
  const running = new Promise<void>((resolve) => (isRunning = resolve));
  const keep = (data: Buffer) => {
    output = (output + data.toString()).slice(-MAX_OUTPUT_CHARS);
    if (RUNNING_LINE.test(output)) isRunning();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // A test worker that dies must not leave a broker behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => {
    child.once('error', (err) => {
      keep(Buffer.from(`spawn failed: ${err.message}\n`));
      resolve();
    });
    child.once('exit', () => resolve());
  }).then(() => {
    process.off('exit', killOnExit);
  });
  return { child, output: () => output, running, exited };
}

/** Spawns Mosquitto and resolves once it says both listeners are open. */
async function startProcess(configFile: string, ports: number[]): Promise<Process> {
  const proc = spawnBroker(configFile);
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    proc.running.then(() => 'running' as const),
    proc.exited.then(() => 'exited' as const),
    new Promise<'timed out'>((resolve) => {
      timer = setTimeout(() => resolve('timed out'), START_TIMEOUT_MS);
    }),
  ]);
  clearTimeout(timer);
  if (outcome === 'exited') {
    throw new StartError(`mosquitto exited with ${proc.child.exitCode} at start`, proc.output());
  }
  if (outcome === 'timed out') {
    await killAndWait(proc);
    throw new StartError(
      `mosquitto did not open ports ${ports.join(' and ')} within ${START_TIMEOUT_MS} ms`,
      proc.output(),
    );
  }
  return proc;
}

async function killAndWait(proc: Process): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return proc.exited;
  proc.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    proc.exited.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), STOP_TIMEOUT_MS);
    }),
  ]);
  clearTimeout(timer);
  if (timedOut) {
    proc.child.kill('SIGKILL');
    await proc.exited;
  }
}

async function runBroker(
  dir: string,
  configFile: string,
  tcpPort: number,
  wsPort: number,
): Promise<RunningMosquitto> {
  let proc: Process | undefined = await startProcess(configFile, [tcpPort, wsPort]);
  let stopped = false;
  return {
    tcpUrl: `mqtt://127.0.0.1:${tcpPort}`,
    // Mosquitto serves MQTT on any path; /mqtt is the path the embedded broker uses.
    wsUrl: `ws://127.0.0.1:${wsPort}/mqtt`,
    async restart() {
      if (stopped) throw new Error('mosquitto was stopped');
      if (proc) await killAndWait(proc);
      proc = undefined;
      proc = await startProcess(configFile, [tcpPort, wsPort]);
    },
    async kill() {
      const current = proc;
      proc = undefined;
      if (!current || current.child.exitCode !== null) return;
      current.child.kill('SIGKILL');
      await current.exited;
    },
    async start() {
      if (stopped) throw new Error('mosquitto was stopped');
      proc ??= await startProcess(configFile, [tcpPort, wsPort]);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (proc) await killAndWait(proc);
      proc = undefined;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
