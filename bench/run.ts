// `npm run bench`: every benchmark in turn, each in its own process, then one table of their
// headline figures with the machine and its load. Options: `--summary` (only the table; the
// benchmarks' own output goes to a log file), and names of benchmarks to run only those
// (`npm run bench -- generation seams`).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseHeadline, type Headline } from './headline.js';
import { machineLine } from './machine.js';

const BENCHMARKS = [
  'messaging-round-trip',
  'ld-paging',
  'ld-search',
  'generation',
  'dashboard-browser',
  'hd',
  'flood',
  'seams',
  'defects',
  'repetition',
  'structure',
  'series',
  'material-maps',
  'print',
  'event-loop',
  'reconnect-wave',
] as const;
/** A benchmark still running after this long is stopped and reported as such. */
const TIME_LIMIT_MS = 30 * 60_000;
const HERE = path.dirname(fileURLToPath(import.meta.url));

interface Outcome {
  name: string;
  headlines: Headline[];
  seconds: number;
  /** Why it did not run to the end, if it did not. */
  failure?: string;
}

function run(name: string, log: (line: string) => void): Promise<Outcome> {
  const started = performance.now();
  const headlines: Headline[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', `${name}.ts`], {
    cwd: HERE,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      const headline = parseHeadline(line);
      if (headline) headlines.push(headline);
      log(line);
    });
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, TIME_LIMIT_MS);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      const failure = timedOut
        ? `stopped after ${TIME_LIMIT_MS / 60_000} min`
        : code !== 0
          ? `exit ${code ?? signal}`
          : headlines.length === 0
            ? 'no headline printed'
            : undefined;
      resolve({ name, headlines, seconds, ...(failure && { failure }) });
    });
  });
}

function table(outcomes: Outcome[]): string[] {
  const rows: string[][] = [['benchmark', 'figure', 'value', 'goal', 'verdict', 'time']];
  for (const o of outcomes) {
    const time = `${o.seconds.toFixed(0)} s`;
    if (o.failure) rows.push([o.name, '', '', '', `FAILED: ${o.failure}`, time]);
    for (const [i, h] of o.headlines.entries()) {
      const verdict = h.met === undefined ? '' : h.met ? 'met' : 'NOT met';
      const first = i === 0 && !o.failure;
      rows.push([first ? o.name : '', h.figure, h.value, h.goal ?? '', verdict, first ? time : '']);
    }
  }
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => r[c]?.length ?? 0))) ?? [];
  return rows.map((r) =>
    r
      .map((cell, c) => cell.padEnd(widths[c] ?? 0))
      .join(' | ')
      .trimEnd(),
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const summaryOnly = args.includes('--summary');
  const wanted = args.filter((a) => !a.startsWith('--'));
  const unknown = wanted.filter((w) => !(BENCHMARKS as readonly string[]).includes(w));
  if (unknown.length > 0) {
    console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${BENCHMARKS.join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const names = wanted.length > 0 ? wanted : [...BENCHMARKS];
  const logFile = path.join(os.tmpdir(), `tessera-bench-${Date.now()}.log`);
  const logStream = summaryOnly ? fs.createWriteStream(logFile) : undefined;
  const log = (line: string) => (logStream ? logStream.write(`${line}\n`) : console.log(line));
  const before = machineLine();
  if (summaryOnly) console.log(`running ${names.length} benchmarks; their output: ${logFile}`);

  const outcomes: Outcome[] = [];
  for (const name of names) {
    if (summaryOnly) console.log(`  ${name} ...`);
    log(`\n=== ${name}`);
    outcomes.push(await run(name, log));
  }
  logStream?.end();

  console.log('\nSummary');
  console.log(`at the start: ${before}`);
  console.log(`at the end:   ${machineLine()}`);
  for (const line of table(outcomes)) console.log(line);
  const failed = outcomes.filter((o) => o.failure);
  if (failed.length > 0) {
    console.log(`${failed.length} benchmark(s) did not run to the end`);
    process.exitCode = 1;
  }
}

await main();
