import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildHdCommand, errorText, type HdStatusMessage } from '@tessera/contract';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { BuiltinEngine } from '../engines/builtin/builtin-engine.js';
import type { Engine } from '../engines/engine.js';
import type { TestClient } from '../testing/test-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { untilAborted } from '../testing/until-aborted.js';

// Issue 12, defect 6: deleting an LD image while its HD job runs.

let running: TestServer | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** The server of the test under way. */
function server(): TestServer {
  if (!running) throw new Error('no server started');
  return running;
}

/** The builtin engine (Lanczos) whose upscale first waits for `before` to settle. */
function gatedEngine(before: (signal: AbortSignal) => Promise<void>): Engine {
  const real = new BuiltinEngine({ upscaler: 'lanczos' });
  return {
    name: 'gated',
    generate: (...args) => real.generate(...args),
    upscale: async (params, progress, signal) => {
      await before(signal);
      return real.upscale(params, progress, signal);
    },
  };
}

async function setUp(engine: Engine): Promise<TestClient> {
  const t = (running = await startTestServer(['alice'], 'embedded', {
    engine,
    hdRetryDelayMs: () => 10,
  }));
  const alice = await t.connect('alice');
  const png = await sharp({
    create: { width: 1024, height: 1024, channels: 3, background: '#884422' },
  })
    .png()
    .toBuffer();
  await t.files.write('alice', 'ld', 'square.png', png);
  expect((await alice.call('refresh-low-definition')).success).toBe(true);
  return alice;
}

function order(alice: TestClient): Promise<void> {
  const command = buildHdCommand({
    id: randomUUID(),
    user: 'alice',
    image: 'square.png',
    metadata: {},
    sizeLabel: '30x30',
  });
  return alice.send(alice.commandTopic('generate-image'), command);
}

const statuses = (alice: TestClient) =>
  alice.received
    .filter((m) => m.topic === 'query/status-generate-image/user/alice')
    .map((m) => m.body as unknown as HdStatusMessage);

async function hdJobStatuses(): Promise<string[]> {
  const jobs = await server()
    .db.selectFrom('jobs')
    .select('status')
    .where('kind', '=', 'hd')
    .execute();
  return jobs.map((job) => job.status);
}

/** Waits until the HD jobs' statuses are `expected`, read again at each change of alice's jobs. */
function hdJobsAre(expected: string[], timeoutMs: number): Promise<true> {
  return server().waitForJobs(
    'alice',
    `HD jobs ${expected.join(', ')}`,
    async () => JSON.stringify(await hdJobStatuses()) === JSON.stringify(expected) || undefined,
    timeoutMs,
  );
}

const filesIn = (area: string) => {
  const dir = path.join(server().dataDir, 'files', 'alice', area);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

describe('deleting an LD image while its HD job runs', () => {
  it('answers success, cancels the job and leaves no HD file, thumbnail or row', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const alice = await setUp(
      gatedEngine((signal) => {
        started();
        // Runs until the job is cancelled.
        return untilAborted(signal, new Error('aborted'));
      }),
    );
    await order(alice);
    await running;

    const answer = await alice.call('delete-low-definition', { filename: 'square.png' });
    expect(answer.success).toBe(true);
    await hdJobsAre(['cancelled'], 10_000);

    expect(filesIn('hd')).toEqual([]);
    expect(filesIn('hd-thumbnails')).toEqual([]);
    expect(filesIn('ld')).toEqual([]);
    const images = await server().db.selectFrom('images').select('filename').execute();
    expect(images).toEqual([]);
    expect(statuses(alice).map((s) => s.status)).not.toContain('finished');
    expect(JSON.stringify(statuses(alice))).not.toMatch(/FOREIGN KEY/);
  });

  it('ends the cancelled job on the status stream, so no client counts it queued (issue 22, part 9)', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const alice = await setUp(
      gatedEngine((signal) => {
        started();
        return untilAborted(signal, new Error('aborted'));
      }),
    );
    await order(alice);
    await running;
    expect((await alice.call('delete-low-definition', { filename: 'square.png' })).success).toBe(
      true,
    );
    const last = () => statuses(alice).at(-1);
    await alice.waitFor(
      'the cancelled status',
      () => (last()?.reason === 'cancelled' ? true : undefined),
      10_000,
    );
    expect(last()).toMatchObject({
      image: 'square.png',
      status: 'error',
      error: errorText('HD_JOB_CANCELLED'),
    });
    expect(new Set(statuses(alice).map((s) => s.id)).size).toBe(1);
  });

  it('fails the job once with a readable text, and removes what it wrote, when the source vanished as it was recorded', async () => {
    const alice = await setUp(
      gatedEngine(async () => {
        // The LD row goes as the engine works, without the delete command's cancellation: the
        // HD record would point at nothing.
        await server().db.deleteFrom('images').where('filename', '=', 'square.png').execute();
      }),
    );
    await order(alice);
    await hdJobsAre(['error'], 20_000);

    // The row turns to error before its status message reaches the user: wait for the message.
    const errorTexts = () =>
      statuses(alice)
        .filter((s) => s.status === 'error')
        .map((s) => s.error);
    await alice.waitFor(
      'an error status',
      () => (errorTexts().length > 0 ? true : undefined),
      10_000,
    );
    expect(errorTexts()).toEqual([errorText('IMAGE_GONE', 'square.png')]);
    expect(filesIn('hd')).toEqual([]);
    expect(filesIn('hd-thumbnails')).toEqual([]);
    // Told once: no second error came while the files were checked.
    expect(errorTexts()).toHaveLength(1);
  });
});
