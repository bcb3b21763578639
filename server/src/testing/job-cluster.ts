import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { buildHdCommand, userQueryTopics, type HdStatusMessage } from '@tessera/contract';
import mqtt, { type MqttClient } from 'mqtt';
import sharp from 'sharp';
import { userProvisioning } from '../container.js';
import { LocalFileStore } from '../files/local-file-store.js';
import { UserService } from '../services/users.js';
import { openDatabase } from '../store/database.js';
import { createUserRepository } from '../store/users.js';
import { passwordOf, tempDir } from './fixtures.js';
import { externalBrokerOf, startMosquitto, type RunningMosquitto } from './mosquitto.js';
import { captureOutput, finished, spawnEntry, type RunResult } from './processes.js';

/**
 * A web process and job workers, each its own `main.ts`, on a real Mosquitto and one database
 * (a PostgreSQL URL, or a SQLite file in the shared data folder), for the outage tests of issue
 * 23: a user who orders HD jobs and follows their status as the browser does.
 */

const SERVICE = { username: 'tessera-service', password: passwordOf('tessera-service') };
export const CLUSTER_USER = 'dana';

export interface ClusterProcess {
  name: string;
  child: ChildProcess;
  url: string;
  done: Promise<RunResult>;
  output: ReturnType<typeof captureOutput>;
}

export interface JobCluster {
  broker: RunningMosquitto;
  /** The shared data folder (the SQLite file without a database URL). */
  dataDir: string;
  web: ClusterProcess;
  workers: ClusterProcess[];
  /** The user's MQTT connection, reconnecting and resubscribing as the browser's does. */
  client: MqttClient;
  /** Every HD status message the user received, in order. */
  statuses: HdStatusMessage[];
  /**
   * The first value `read` gives: at once, or after one of the status messages received later
   * (each is the event to look again on). Rejects after `timeoutMs`, naming `what`.
   */
  waitForStatuses<T>(what: string, read: () => T | undefined, timeoutMs?: number): Promise<T>;
  /** Puts `count` LD images in the user's gallery and orders an HD of each; their ids. */
  orderHd(count: number): Promise<string[]>;
  /** SIGTERMs every process; their exit codes. Stops the broker and removes the data. */
  stop(): Promise<(number | null)[]>;
}

export interface ClusterOptions {
  databaseUrl?: string;
  workers: number;
  /** Settings for every process (a fault hold, a backoff). */
  env?: NodeJS.ProcessEnv;
}

export async function startJobCluster(options: ClusterOptions): Promise<JobCluster> {
  const broker = await startMosquitto(SERVICE);
  const data = tempDir();
  const database = options.databaseUrl ? { url: options.databaseUrl } : {};
  const db = await openDatabase({ dataDir: data.dir, ...database });
  const provisioning = userProvisioning({ externalBroker: externalBrokerOf(broker, SERVICE) });
  await new UserService(createUserRepository(db), provisioning).add(
    CLUSTER_USER,
    passwordOf(CLUSTER_USER),
  );
  await provisioning.close();
  await db.destroy();

  const processes: ClusterProcess[] = [];
  const start = async (role: 'web' | 'worker', name: string): Promise<ClusterProcess> => {
    const child = spawnEntry('main.ts', [], {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: data.dir,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      MQTT_URL: broker.tcpUrl,
      MQTT_USERNAME: SERVICE.username,
      MQTT_PASSWORD: SERVICE.password,
      PUBLIC_MQTT_URL: broker.wsUrl,
      BUILTIN_UPSCALER: 'lanczos',
      ROLE: role,
      INSTANCE_NAME: name,
      ...options.env,
    });
    const proc: ClusterProcess = {
      name,
      child,
      url: '',
      done: finished(child),
      output: captureOutput(child),
    };
    processes.push(proc);
    if (role === 'worker') await proc.output.waitFor(/Tessera worker is running jobs/, 60_000);
    else proc.url = (await proc.output.waitFor(/is running at (http:\/\/\S+)/, 60_000))[1] ?? '';
    return proc;
  };
  const web = await start('web', 'web-a');
  const workers: ClusterProcess[] = [];
  for (let i = 1; i <= options.workers; i++) workers.push(await start('worker', `worker-${i}`));

  const statuses: HdStatusMessage[] = [];
  const client = await mqtt.connectAsync(broker.wsUrl, {
    username: CLUSTER_USER,
    password: passwordOf(CLUSTER_USER),
    protocolVersion: 5,
    reconnectPeriod: 200,
    connectTimeout: 4000,
  });
  const statusTopic = `query/status-generate-image/user/${CLUSTER_USER}`;
  client.on('message', (topic, payload) => {
    if (topic === statusTopic) statuses.push(JSON.parse(String(payload)) as HdStatusMessage);
  });
  await client.subscribeAsync(userQueryTopics(CLUSTER_USER));

  const call = async (action: string) => {
    const transactionid = randomUUID();
    const answer = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${action}`)), 30_000);
      const onMessage = (_topic: string, payload: Buffer) => {
        if (!String(payload).includes(transactionid)) return;
        clearTimeout(timer);
        client.off('message', onMessage);
        resolve();
      };
      client.on('message', onMessage);
    });
    await client.publishAsync(
      `command/${action}/user/${CLUSTER_USER}`,
      JSON.stringify({ transactionid, user: CLUSTER_USER }),
    );
    await answer;
  };

  return {
    broker,
    dataDir: data.dir,
    web,
    workers,
    client,
    statuses,
    waitForStatuses(what, read, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        // Registered after the listener that keeps `statuses`, so it holds the message already.
        const check = () => {
          const value = read();
          if (value === undefined) return;
          cleanup();
          resolve(value);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${what} in ${timeoutMs} ms`));
        }, timeoutMs);
        function cleanup() {
          clearTimeout(timer);
          client.off('message', check);
        }
        client.on('message', check);
        check();
      });
    },
    async orderHd(count) {
      const files = new LocalFileStore(path.join(data.dir, 'files'));
      for (let i = 1; i <= count; i++) {
        const png = await sharp({
          create: { width: 1024, height: 1024, channels: 3, background: `#8b5a${10 + i}` },
        })
          .png()
          .toBuffer();
        await files.write(CLUSTER_USER, 'ld', `tile-${i}.png`, png);
      }
      await call('refresh-low-definition');
      const ids: string[] = [];
      for (let i = 1; i <= count; i++) {
        const id = randomUUID();
        const command = buildHdCommand({
          id,
          user: CLUSTER_USER,
          image: `tile-${i}.png`,
          metadata: {},
          sizeLabel: '30x30',
        });
        await client.publishAsync(
          `command/generate-image/user/${CLUSTER_USER}`,
          JSON.stringify(command),
        );
        ids.push(id);
      }
      return ids;
    },
    async stop() {
      await client.endAsync(true);
      const codes: (number | null)[] = [];
      for (const { child, done } of processes) {
        child.kill('SIGTERM');
        codes.push((await done).code);
      }
      await broker.stop();
      data.remove();
      return codes;
    },
  };
}
