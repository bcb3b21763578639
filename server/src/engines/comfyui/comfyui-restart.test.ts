// Tessera, a real process with ENGINE=comfyui, killed with SIGKILL while its prompt runs on the
// stand-in: after a restart the job picks the same prompt up (same prompt id, same websocket
// client id) instead of queueing the GPU work a second time.
import fs from 'node:fs';
import { API_ROUTES } from '@tessera/contract';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserService } from '../../services/users.js';
import { openDatabase } from '../../store/database.js';
import { createUserRepository } from '../../store/users.js';
import { startComfyStandIn, type ComfyStandIn } from '../../testing/comfyui-stand-in/index.js';
import { passwordOf, tempDir } from '../../testing/fixtures.js';
import {
  bricksPng,
  postPreview,
  previewFields,
  signIn,
  waitForPreview,
} from '../../testing/http.js';
import { captureOutput, finished, spawnEntry } from '../../testing/processes.js';

let data: ReturnType<typeof tempDir>;
let comfy: ComfyStandIn;

beforeEach(async () => {
  data = tempDir();
  const db = await openDatabase({ dataDir: data.dir });
  await new UserService(createUserRepository(db)).add('alice', passwordOf('alice'));
  await db.destroy();
  comfy = await startComfyStandIn();
});

afterEach(async () => {
  await comfy.close();
  data.remove();
});

async function start() {
  const server = spawnEntry('main.ts', [], {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: data.dir,
    ENGINE: 'comfyui',
    COMFYUI_URLS: comfy.url,
  });
  const output = captureOutput(server);
  const [, url] = await output.waitFor(/Tessera is running at (http:\/\/\S+)/);
  return { server, url: url ?? '', done: finished(server) };
}

async function jobRows() {
  const db = await openDatabase({ dataDir: data.dir });
  try {
    return await db
      .selectFrom('jobs')
      .select(['status', 'attempts', 'prompt_id', 'prompt_server', 'prompt_client_id', 'percent'])
      .execute();
  } finally {
    await db.destroy();
  }
}

/** The preview's percent as the status route shows it now. */
async function previewPercent(url: string, cookie: string): Promise<number> {
  const res = await fetch(`${url}${API_ROUTES.previewStatus}?t=${Date.now()}`, {
    headers: { cookie },
  });
  return ((await res.json()) as { percent: number }).percent;
}

async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Tessera killed while its prompt runs on ComfyUI', () => {
  it('picks the same prompt up after the restart: no second submission', async () => {
    // The prompt stops at its sampler until released: it is surely running when Tessera dies.
    comfy.holdAt('3');
    const first = await start();
    const cookie = await signIn(first.url, 'alice');
    const posted = await postPreview(first.url, cookie, {
      file: { name: 'bricks.png', data: await bricksPng(128, 128) },
      fields: previewFields('alice'),
    });
    expect(posted.status).toBe(202);
    await until(
      async () => (await jobRows())[0]?.prompt_id != null && comfy.queueRemaining() === 1,
      'the prompt to be queued and noted with the job',
    );
    // What the user sees before the kill, stored as the job's floor (issue 23, part 12).
    let shownBefore = 0;
    await until(async () => {
      shownBefore = await previewPercent(first.url, cookie);
      // Past the 5 % of uploading and queueing: the rerun's own first report is 5 %.
      return shownBefore > 5;
    }, 'the preview to show the prompt running');
    await until(
      async () => ((await jobRows())[0]?.percent ?? 0) >= shownBefore,
      'the percent shown to be stored',
    );
    const [noted] = await jobRows();
    expect(noted).toMatchObject({
      status: 'in_progress',
      prompt_id: comfy.prompts[0]?.prompt_id,
      prompt_server: comfy.url,
      prompt_client_id: comfy.prompts[0]?.client_id,
    });
    first.server.kill('SIGKILL');
    await first.done;

    const second = await start();
    const secondCookie = await signIn(second.url, 'alice');
    // Picked up on a socket of the same client id: only then may the prompt go on. Meanwhile
    // the user sees the job requeued and running again, at no lower percent than before.
    const shownAfter: number[] = [];
    await until(async () => {
      shownAfter.push(await previewPercent(second.url, secondCookie));
      return comfy.socketClients.filter((id) => id === noted?.prompt_client_id).length === 2;
    }, 'the restarted server to follow the prompt');
    shownAfter.push(await previewPercent(second.url, secondCookie));
    comfy.release();
    const result = await waitForPreview(second.url, secondCookie);
    second.server.kill('SIGTERM');
    await second.done;

    expect(result.status).toBe('finished');
    // Progress never went back after the restart (it went 27 → 0 → 37 % before issue 23).
    shownAfter.push(...result.seen.map((seen) => Number(seen.split(':')[1])));
    expect(Math.min(...shownAfter)).toBeGreaterThanOrEqual(shownBefore);
    expect(comfy.prompts).toHaveLength(1);
    expect(comfy.uploads).toHaveLength(1);
    expect(fs.readdirSync(path.join(data.dir, 'files', 'alice', 'ld'))).toEqual([
      result.output_image,
    ]);
    expect(await jobRows()).toEqual([
      {
        status: 'finished',
        attempts: 2,
        prompt_id: null,
        prompt_server: null,
        prompt_client_id: null,
        percent: 100,
      },
    ]);
  }, 120_000);
});
