// The load run of issue 12 (`npm run load`): the built server as its own process, 50 users over
// HTTP + MQTT for 60 s listing, tagging, deleting and ordering HD while previews run, then 200
// idle connections added. Loopback only, bounded in count and time; it stops by itself. A
// refused or timed-out connection, login or command is counted as an error, never a crash.
// Settings: LOAD_USERS (50), LOAD_SECONDS (60), LOAD_IDLE (200, at most what the server's
// per-user connection cap leaves beside each user's own tab).
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildHdCommand, hdSizesForImage, IMAGE_PAGE_SIZE, TAG_PAGE_SIZE } from '@tessera/contract';
import sharp from 'sharp';
import { DEFAULT_BROKER_LIMITS } from '../server/src/broker/limits.js';
import { bricksPng, previewFields } from '../server/src/testing/http.js';
import { BenchClient } from './client.js';
import { machineLine } from './machine.js';
import { ms, percentile, sleep } from './stats.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = path.join(ROOT, 'server/dist/main.js');
const USERS_CLI = path.join(ROOT, 'server/dist/commands/users.js');

const USERS = Number(process.env.LOAD_USERS ?? 50);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
/** Each user's own tab and one spare (a reconnect) stay within MQTT_MAX_CONNECTIONS_PER_USER. */
const IDLE_PER_USER = DEFAULT_BROKER_LIMITS.connectionsPerUser - 2;
const IDLE = Math.min(Number(process.env.LOAD_IDLE ?? 200), USERS * IDLE_PER_USER);
/** A browser does not give up on a login; queued behind 50 scrypts it can take a while. */
const LOGIN_TIMEOUT_MS = 60_000;
/** After the idle connections join, the users go on this long. */
const IDLE_PHASE_SECONDS = Math.min(15, SECONDS);
/** A person's pace: one action every 250–750 ms. */
const THINK_MS = [250, 750] as const;
/** Users who also keep generating previews, one after another. */
const PREVIEW_USERS = Math.min(USERS, 10);
const SEEDED_IMAGES = 6;
/** From the server's start (creating the users before it takes a while on a busy machine). */
const HARD_STOP_MS = (SECONDS + IDLE_PHASE_SECONDS + 240) * 1000;
/**
 * A preview still running this long after its phase ended is left to the server: on a busy
 * 2-core machine the job queue (HD orders too) can hold it for minutes, which is not an error.
 */
const PREVIEW_GRACE_MS = 20_000;
let previewsLeftRunning = 0;

const latencies = new Map<string, number[]>();
const errors: string[] = [];
let requests = 0;

function record(name: string, startedAt: number): void {
  requests += 1;
  const list = latencies.get(name) ?? [];
  list.push(performance.now() - startedAt);
  latencies.set(name, list);
}

function fail(name: string, detail: string): void {
  requests += 1;
  errors.push(`${name}: ${detail}`.slice(0, 300));
}

/** Each user's own loopback source address, as 50 people on 50 machines would come. */
const addressOf = (index: number) => `127.0.0.${2 + (index % 250)}`;
const usernameOf = (index: number) => `load${String(index).padStart(2, '0')}`;
const passwordOf = (username: string) => `${username}-load-password`;

interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function httpRequest(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: Buffer;
    localAddress: string;
    timeoutMs?: number;
  },
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.localAddress,
        timeout: options.timeoutMs ?? 15_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(options.body);
  });
}

async function startServer(dataDir: string) {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      BUILTIN_UPSCALER: 'lanczos',
      LOG_LEVEL: 'info',
      SHUTDOWN_DRAIN_MS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stats = '';
  const onData = (data: Buffer) => {
    const text = String(data);
    // Only what the run reads is kept: the address and the final process stats.
    if (!output.includes('http://')) output += text;
    const line = text.split('\n').find((l) => l.includes('process stats'));
    if (line) stats = line;
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const deadline = Date.now() + 60_000;
  let url: string | undefined;
  while (!url) {
    url = /http:\/\/127\.0\.0\.1:\d+/.exec(output)?.[0];
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    if (!url) await sleep(50);
  }
  const peakRssMb = () => {
    try {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    } catch {
      return Number.NaN;
    }
  };
  return {
    url,
    peakRssMb,
    async stop(): Promise<Record<string, number>> {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      const json = /\{.*\}/.exec(stats)?.[0];
      return json ? (JSON.parse(json) as Record<string, number>) : {};
    },
  };
}

function addUsers(dataDir: string): void {
  for (let i = 0; i < USERS; i++) {
    const username = usernameOf(i);
    const result = spawnSync(process.execPath, [USERS_CLI, 'add', username], {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      input: `${passwordOf(username)}\n`,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`users add ${username}: ${result.stderr}`);
  }
}

/** A few LD images in each user's folder, as earlier generations would have left them. */
async function seedImages(dataDir: string): Promise<void> {
  const square = await sharp(await bricksPng(1024, 1024, 64))
    .png()
    .toBuffer();
  for (let i = 0; i < USERS; i++) {
    const folder = path.join(dataDir, 'files', usernameOf(i), 'ld');
    fs.mkdirSync(folder, { recursive: true });
    for (let n = 0; n < SEEDED_IMAGES; n++) {
      fs.writeFileSync(path.join(folder, `seed-${n}.png`), square);
    }
  }
}

interface LoadUser {
  index: number;
  username: string;
  /** What the browser logs in to the broker with: the session's messaging secret, if given. */
  messagingPassword: string;
  cookie: string;
  client: BenchClient;
  images: string[];
  tags: string[];
}

/** The login page's request, then the tab's connection; undefined (an error counted) if either fails. */
async function signIn(
  base: string,
  index: number,
  brokerUrl: string,
): Promise<LoadUser | undefined> {
  const username = usernameOf(index);
  const localAddress = addressOf(index);
  const started = performance.now();
  let login: HttpAnswer;
  try {
    login = await httpRequest(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ username, password: passwordOf(username) })),
      localAddress,
      timeoutMs: LOGIN_TIMEOUT_MS,
    });
  } catch (err) {
    return void fail('http login', `${username}: ${(err as Error).message}`);
  }
  if (login.status !== 200)
    return void fail('http login', `${username}: ${login.status} ${login.body}`);
  record('http login', started);
  const cookie = String(login.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '';
  const secret = (JSON.parse(login.body) as { messagingSecret?: string }).messagingSecret;
  const messagingPassword = secret ?? passwordOf(username);
  const connectStarted = performance.now();
  try {
    const client = await BenchClient.connect(brokerUrl, username, messagingPassword, localAddress);
    record('mqtt connect', connectStarted);
    return { index, username, messagingPassword, cookie, client, images: [], tags: [] };
  } catch (err) {
    return void fail('mqtt connect', `${username}: ${(err as Error).message}`);
  }
}

/** One answered command, timed; a refusal or a timeout is an error. */
async function command(user: LoadUser, action: string, fields: Record<string, unknown> = {}) {
  const started = performance.now();
  try {
    const body = await user.client.request(action, fields);
    if (body.success !== true) return fail(action, JSON.stringify(body));
    record(action, started);
    return body;
  } catch (err) {
    return fail(action, (err as Error).message);
  }
}

const pick = <T>(list: readonly T[]): T | undefined =>
  list[Math.floor(Math.random() * list.length)];
const think = () => sleep(THINK_MS[0] + Math.random() * (THINK_MS[1] - THINK_MS[0]));

/** One person's session: what a texture artist does in the Dashboard, at a person's pace. */
async function browse(user: LoadUser, until: number): Promise<void> {
  let deletes = 0;
  while (performance.now() < until) {
    const roll = Math.random();
    if (roll < 0.3) {
      const body = await command(user, 'list-low-definition', {
        page: 1,
        size: IMAGE_PAGE_SIZE,
        filters: { tags: [] },
      });
      const images = (body?.images ?? []) as { filename: string }[];
      if (images.length > 0) user.images = images.map((i) => i.filename);
    } else if (roll < 0.45) {
      await command(user, 'list-tag', { page: 1, size: TAG_PAGE_SIZE });
    } else if (roll < 0.55) {
      const id = randomUUID();
      const created = await command(user, 'create-tag', {
        id,
        name: `T${Math.floor(Math.random() * 1e6)}`.slice(0, 15),
        color: '#a1b2c3',
      });
      if (created) user.tags.push(id);
    } else if (roll < 0.7) {
      const tag = pick(user.tags);
      const image = pick(user.images);
      if (tag && image) {
        await command(user, 'assign-tag', { id: tag, filename: image });
        await command(user, 'unassign-tag', { id: tag, filename: image });
      }
    } else if (roll < 0.78) {
      const tag = user.tags.pop();
      if (tag) await command(user, 'delete-tag', { id: tag });
    } else if (roll < 0.86) {
      await command(user, 'list-high-definition', { page: 1, size: IMAGE_PAGE_SIZE });
    } else if (roll < 0.94) {
      // seed-0 is never deleted: an order on an image the user deletes meanwhile is refused.
      const image = user.images.find((name) => name === 'seed-0.png');
      const size = hdSizesForImage(1024, 1024)[0];
      if (image && size) {
        const started = performance.now();
        const order = buildHdCommand({
          id: randomUUID(),
          user: user.username,
          image,
          metadata: {},
          sizeLabel: size,
        });
        try {
          await user.client.publish('generate-image', order);
          record('generate-image (sent)', started);
        } catch (err) {
          fail('generate-image (sent)', (err as Error).message);
        }
      }
    } else if (deletes < 2) {
      // Never the first seed: the HD orders use it.
      const image = user.images.find((name) => name !== 'seed-0.png');
      if (image) {
        deletes += 1;
        user.images = user.images.filter((name) => name !== image);
        await command(user, 'delete-low-definition', { filename: image });
      }
    }
    await think();
  }
}

/** Previews one after another, as the generate screen posts them, while the others browse. */
async function generatePreviews(base: string, user: LoadUser, until: number): Promise<void> {
  const reference = await bricksPng();
  while (performance.now() < until) {
    const form = new FormData();
    form.append('image', new Blob([reference], { type: 'image/png' }), 'bricks.png');
    for (const [key, value] of Object.entries(previewFields(user.username)))
      form.append(key, value);
    const encoded = new Response(form);
    const started = performance.now();
    try {
      const posted = await httpRequest(`${base}/api/command/generate-image/preview`, {
        method: 'POST',
        headers: {
          cookie: user.cookie,
          'content-type': encoded.headers.get('content-type') ?? '',
        },
        body: Buffer.from(await encoded.arrayBuffer()),
        localAddress: addressOf(user.index),
      });
      if (posted.status !== 202) {
        fail('http preview post', `${posted.status} ${posted.body}`);
        continue;
      }
      record('http preview post', started);
      // The screen polls every 3 s; a shorter poll here only adds requests.
      for (;;) {
        await sleep(1000);
        const pollStarted = performance.now();
        const status = await httpRequest(
          `${base}/api/query/status-generate-image/preview?t=${Date.now()}`,
          { headers: { cookie: user.cookie }, localAddress: addressOf(user.index) },
        );
        if (status.status !== 200) {
          fail('http preview status', `${status.status} ${status.body}`);
          break;
        }
        record('http preview status', pollStarted);
        const state = (JSON.parse(status.body) as { status: string }).status;
        if (state === 'error') fail('preview job', status.body);
        if (state === 'finished' || state === 'error') break;
        if (performance.now() > until + PREVIEW_GRACE_MS) {
          previewsLeftRunning += 1;
          break;
        }
      }
      await command(user, 'refresh-low-definition');
    } catch (err) {
      fail('http preview', (err as Error).message);
    }
  }
}

const loadStarted = performance.now();
function progress(what: string): void {
  console.log(`  ${((performance.now() - loadStarted) / 1000).toFixed(0)} s: ${what}`);
}

async function main(): Promise<void> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build first`);

  console.log(machineLine());
  console.log(`load: ${USERS} users, ${SECONDS} s, then ${IDLE} idle connections`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-load-'));
  addUsers(dataDir);
  await seedImages(dataDir);
  progress('users created');
  const server = await startServer(dataDir);
  const hardStop = setTimeout(() => {
    console.error('load run over its time budget: stopping');
    process.exit(2);
  }, HARD_STOP_MS);
  hardStop.unref();
  const brokerUrl = `${server.url.replace('http', 'ws')}/mqtt`;
  const runStarted = performance.now();
  const idle: BenchClient[] = [];
  try {
    const signedIn = await Promise.all(
      Array.from({ length: USERS }, (_, i) => signIn(server.url, i, brokerUrl)),
    );
    const users = signedIn.filter((user): user is LoadUser => user !== undefined);
    progress(`${users.length} users signed in and connected`);
    await Promise.all(users.map((user) => command(user, 'refresh-low-definition')));

    const phaseOne = performance.now() + SECONDS * 1000;
    await Promise.all([
      ...users.map((user) => browse(user, phaseOne)),
      ...users.slice(0, PREVIEW_USERS).map((user) => generatePreviews(server.url, user, phaseOne)),
    ]);

    progress('first phase over');
    // Idle tabs: four more per user (at 50 users), connected and subscribed, saying nothing.
    for (let i = 0; i < IDLE && users.length > 0; i++) {
      const user = users[i % users.length] as LoadUser;
      const started = performance.now();
      try {
        idle.push(
          await BenchClient.connect(
            brokerUrl,
            user.username,
            user.messagingPassword,
            addressOf(user.index),
          ),
        );
        record('idle connect', started);
      } catch (err) {
        fail('idle connect', (err as Error).message);
      }
    }
    progress(`${idle.length} idle connections added`);
    const phaseTwo = performance.now() + IDLE_PHASE_SECONDS * 1000;
    await Promise.all(users.map((user) => browse(user, phaseTwo)));
    // HD orders still running finish or not; what counts is that none said 'error'.
    for (const user of users) for (const error of user.client.hdErrors) fail('hd status', error);
    for (const client of [...users.map((u) => u.client), ...idle])
      for (const error of client.errors) fail('mqtt connection', error);
    await Promise.all([...users.map((u) => u.client.close()), ...idle.map((c) => c.close())]);
  } finally {
    const peakRssMb = server.peakRssMb();
    const stats = await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    report(performance.now() - runStarted, peakRssMb, stats);
  }
  process.exitCode = errors.length === 0 ? 0 : 1;
}

function report(elapsedMs: number, peakRssMb: number, stats: Record<string, number>): void {
  console.log(
    `run: ${(elapsedMs / 1000).toFixed(1)} s, ${requests} requests, ${errors.length} errors`,
  );
  console.log('command                       count      p50      p99');
  for (const [name, samples] of [...latencies].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(
      `${name.padEnd(28)} ${String(samples.length).padStart(6)} ${ms(percentile(samples, 50)).padStart(9)} ${ms(percentile(samples, 99)).padStart(9)}`,
    );
  }
  console.log(`previews still running when the run ended: ${previewsLeftRunning}`);
  console.log(`server peak RSS: ${peakRssMb.toFixed(0)} MB (VmHWM)`);
  console.log(
    `server worst event-loop delay: ${stats.eventLoopDelayMaxMs ?? '?'} ms (p99 ${stats.eventLoopDelayP99Ms ?? '?'} ms)`,
  );
  const byKind = new Map<string, number>();
  for (const error of errors) {
    const kind = error.split(':')[0] ?? error;
    byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
  }
  for (const [kind, count] of byKind) console.log(`errors of ${kind}: ${count}`);
  for (const error of errors.slice(0, 20)) console.log(`error: ${error}`);
}

await main();
