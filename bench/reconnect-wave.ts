// A reconnect wave right after a server restart (issue 22, part 3): 100 signed-in users connect
// to the embedded broker at once, with their password (scrypt per CONNECT, the baseline) and
// with their session's messaging secret (a lookup), in turns on one server restarted before
// each wave. Prints connect p50/p99, how many took over the browser's 4 s connect timeout, and
// the ratio. Run: node --import tsx reconnect-wave.ts
import http from 'node:http';
import { MQTT_CONNECT_TIMEOUT_MS } from '@tessera/contract';
import mqtt, { type MqttClient } from 'mqtt';
import { passwordOf } from '../server/src/testing/fixtures.js';
import { startTestServer, type TestServer } from '../server/src/testing/test-server.js';
import { printHeadline } from './headline.js';
import { machineLine } from './machine.js';
import { ms, percentile, ratio } from './stats.js';

const USERS = Array.from({ length: 100 }, (_, i) => `wave${i}`);
const ROUNDS = 2;
/** Long enough to see how long a connect really takes; the browser gives up at 4 s. */
const MEASURE_TIMEOUT_MS = 120_000;

/** Each user from a loopback address of 10, as people on several machines would come. */
const addressOf = (index: number) => `127.0.3.${1 + (index % 10)}`;

function login(base: string, index: number, username: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/api/login`,
      {
        method: 'POST',
        localAddress: addressOf(index),
        agent: false,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += String(chunk)));
        res.on('end', () => {
          const body = JSON.parse(text) as { messagingSecret?: string };
          if (res.statusCode !== 200 || !body.messagingSecret)
            reject(new Error(`login ${username}: ${res.statusCode} ${text}`));
          else resolve(body.messagingSecret);
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ username, password: passwordOf(username) }));
  });
}

/** Milliseconds from the start of the wave to this connection's CONNACK. */
function timedConnect(
  url: string,
  index: number,
  username: string,
  password: string,
  started: number,
): Promise<{ ms: number; client: MqttClient }> {
  const client = mqtt.connect(url, {
    username,
    password,
    clean: true,
    reconnectPeriod: 0,
    connectTimeout: MEASURE_TIMEOUT_MS,
    wsOptions: { localAddress: addressOf(index) },
  });
  return new Promise((resolve, reject) => {
    client.once('connect', () => resolve({ ms: performance.now() - started, client }));
    client.once('error', (err) => {
      client.end(true);
      reject(err);
    });
  });
}

async function wave(t: TestServer, passwords: (name: string) => string): Promise<number[]> {
  await t.restart();
  const started = performance.now();
  const results = await Promise.all(
    USERS.map((name, i) => timedConnect(t.brokerUrl, i, name, passwords(name), started)),
  );
  await Promise.all(results.map((r) => r.client.endAsync(true)));
  return results.map((r) => r.ms);
}

function line(label: string, samples: number[]): string {
  const late = samples.filter((s) => s > MQTT_CONNECT_TIMEOUT_MS).length;
  return (
    `${label.padEnd(22)} p50 ${ms(percentile(samples, 50)).padStart(9)}  ` +
    `p99 ${ms(percentile(samples, 99)).padStart(9)}  over ${MQTT_CONNECT_TIMEOUT_MS} ms: ${late}/${samples.length}`
  );
}

async function main(): Promise<void> {
  console.log(machineLine());
  console.log(`reconnect wave: ${USERS.length} users at once after a restart, ${ROUNDS} rounds`);
  const t = await startTestServer(USERS, 'embedded');
  try {
    const secrets = new Map<string, string>();
    // Signed in one after another: the run measures the wave, not these logins.
    for (const [i, name] of USERS.entries()) secrets.set(name, await login(t.server.url, i, name));
    const byPassword: number[] = [];
    const bySecret: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      byPassword.push(...(await wave(t, passwordOf)));
      bySecret.push(...(await wave(t, (name) => secrets.get(name) ?? '')));
    }
    console.log(line('password (scrypt)', byPassword));
    console.log(line('messaging secret', bySecret));
    console.log(
      `secret vs password: p50 ${ratio(percentile(byPassword, 50) / percentile(bySecret, 50))} ` +
        `faster, p99 ${ratio(percentile(byPassword, 99) / percentile(bySecret, 99))} faster`,
    );
    printHeadline({
      figure: `reconnect wave of ${USERS.length}, connect p99 with the messaging secret`,
      value: `${ms(percentile(bySecret, 99))}, ${ratio(percentile(byPassword, 99) / percentile(bySecret, 99))} faster than a password`,
      goal: `< ${MQTT_CONNECT_TIMEOUT_MS / 1000} s`,
      met: percentile(bySecret, 99) < MQTT_CONNECT_TIMEOUT_MS,
    });
  } finally {
    await t.stop();
  }
}

await main();
