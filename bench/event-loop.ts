// The server's event loop while images are made (issue 17, part 6): the whole server in this
// process (store, broker, HTTP, job runner) with the builtin engine and its ESRGAN upscaler, a
// preview generated over HTTP and an HD image ordered over MQTT, as users do. For each phase:
// the worst and p99 event-loop delay (perf_hooks.monitorEventLoopDelay), against the same
// process idle for as long, measured in the same run (the machine's own scheduling delay), and
// the synchronous SQLite statements that held the loop longest (better-sqlite3 runs on it).
// Settings: EVENT_LOOP_PREVIEWS (2), EVENT_LOOP_HD_SIZES ('30x30').
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildHdCommand, type HdSizeLabel } from '@tessera/contract';
import { BuiltinEngine } from '../server/src/engines/builtin/builtin-engine.js';
import {
  bricksPng,
  postPreview,
  previewFields,
  signIn,
  waitForPreview,
} from '../server/src/testing/http.js';
import { SQLite } from '../server/src/store/sqlite-driver.js';
import { startTestServer } from '../server/src/testing/test-server.js';
import { printHeadline } from './headline.js';
import { machineLine } from './machine.js';
import { ms, ratio, sleep, verdict } from './stats.js';

const PREVIEWS = Number(process.env.EVENT_LOOP_PREVIEWS ?? 2);
const HD_SIZES = (process.env.EVENT_LOOP_HD_SIZES ?? '30x30').split(',') as HdSizeLabel[];
const GOAL_MS = 50;

/** Synchronous SQLite statements over 5 ms, timed where better-sqlite3 runs them. */
const slowStatements: { ms: number; sql: string }[] = [];
function timeSqlite(): void {
  const probe = new SQLite(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<
    string,
    (...args: unknown[]) => unknown
  >;
  probe.close();
  for (const method of ['run', 'get', 'all'] as const) {
    const original = statement[method];
    if (!original) continue;
    statement[method] = function (this: { source: string }, ...args: unknown[]) {
      const start = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        const took = performance.now() - start;
        if (took > 5) slowStatements.push({ ms: took, sql: this.source.slice(0, 50) });
      }
    };
  }
}

async function main(): Promise<void> {
  console.log(machineLine());
  timeSqlite();
  const t = await startTestServer(['alice'], 'embedded', { engine: new BuiltinEngine() });
  try {
    const base = `http://127.0.0.1:${t.server.port}`;
    const cookie = await signIn(base, 'alice');
    const client = await t.connect('alice');
    const reference = await bricksPng(1024, 1024, 64);
    const loop = monitorEventLoopDelay({ resolution: 2 });

    const phase = async (label: string, run: () => Promise<unknown>) => {
      slowStatements.length = 0;
      loop.reset();
      loop.enable();
      const start = performance.now();
      await run();
      const seconds = (performance.now() - start) / 1000;
      loop.disable();
      const worst = loop.max / 1e6;
      const sql = [...slowStatements].sort((a, b) => b.ms - a.ms)[0];
      return { label, seconds, worst, p99: loop.percentile(99) / 1e6, sql };
    };

    const results = [];
    let ldImage = '';
    for (let k = 0; k < PREVIEWS; k++) {
      results.push(
        await phase(`preview Square 1024x1024 #${k + 1}`, async () => {
          const fields = previewFields('alice', { Kseed: String(100 + k) });
          const posted = await postPreview(base, cookie, {
            file: { name: 'bricks.png', data: reference },
            fields,
          });
          if (posted.status !== 202) throw new Error(`preview refused: ${posted.status}`);
          ldImage = (await waitForPreview(base, cookie, 300_000)).output_image ?? '';
        }),
      );
    }
    for (const size of HD_SIZES) {
      results.push(
        await phase(`HD ${size} (ESRGAN)`, async () => {
          const command = buildHdCommand({
            id: randomUUID(),
            user: 'alice',
            image: ldImage,
            metadata: {},
            sizeLabel: size,
          });
          await client.send(client.commandTopic('generate-image'), command);
          for (;;) {
            const last = client.received
              .filter((m) => m.body.id === command.id)
              .map((m) => m.body.status)
              .at(-1);
            if (last === 'finished') return;
            if (last === 'error') throw new Error(`HD ${size} failed`);
            await sleep(50);
          }
        }),
      );
    }
    // The baseline: the same process doing nothing for as long as the longest phase (at most
    // 30 s): what the machine's scheduling alone delays the loop by.
    const idleSeconds = Math.min(30, Math.max(...results.map((r) => r.seconds)));
    const idle = await phase('idle (baseline)', () => sleep(idleSeconds * 1000));

    for (const r of [...results, idle]) {
      console.log(
        `${r.label.padEnd(34)} ${r.seconds.toFixed(1).padStart(6)} s | event loop worst ${ms(r.worst).padStart(9)}, ` +
          `p99 ${ms(r.p99).padStart(8)} | ${ratio(r.worst / Math.max(idle.worst, 1))} the idle worst | ` +
          `slowest SQLite statement ${r.sql ? `${ms(r.sql.ms)} (${r.sql.sql}…)` : 'under 5 ms'}`,
      );
    }
    const worst = Math.max(...results.map((r) => r.worst));
    console.log(
      `event loop worst delay while making images: ${ms(worst)} (idle in the same run: ${ms(idle.worst)}) | ` +
        `goal < ${GOAL_MS} ms: ${verdict(worst < GOAL_MS)}`,
    );
    printHeadline({
      figure: 'event loop worst delay while making images',
      value: `${ms(worst)} (idle ${ms(idle.worst)})`,
      goal: `< ${GOAL_MS} ms`,
      met: worst < GOAL_MS,
    });
  } finally {
    await t.stop();
  }
}

await main();
