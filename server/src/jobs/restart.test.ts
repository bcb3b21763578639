import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserService } from '../services/users.js';
import { openDatabase } from '../store/database.js';
import { createUserRepository } from '../store/users.js';
import { passwordOf, tempDir } from '../testing/fixtures.js';
import { bricksPng, postPreview, previewFields, signIn, waitForPreview } from '../testing/http.js';
import { captureOutput, finished, spawnEntry } from '../testing/processes.js';

let data: ReturnType<typeof tempDir>;
beforeEach(async () => {
  data = tempDir();
  const db = await openDatabase(data.dir);
  await new UserService(createUserRepository(db)).add('alice', passwordOf('alice'));
  await db.destroy();
});
afterEach(() => data.remove());

async function start() {
  const server = spawnEntry('main.ts', [], { PORT: '0', HOST: '127.0.0.1', DATA_DIR: data.dir });
  const output = captureOutput(server);
  const [, url] = await output.waitFor(/Tessera is running at (http:\/\/\S+)/);
  return { server, url: url ?? '', done: finished(server) };
}

describe('a restart in the middle of a job', () => {
  it('ends with the job finished once and no partial file', async () => {
    const first = await start();
    const cookie = await signIn(first.url, 'alice');
    const fields = previewFields('alice', { latent_width: '2506', latent_height: '418' });
    const posted = await postPreview(first.url, cookie, {
      file: { name: 'bricks.png', data: await bricksPng(512, 512) },
      fields,
    });
    expect(posted.status).toBe(202);

    // Kill the process the moment the job runs: no chance to clean up.
    for (;;) {
      const res = await fetch(`${first.url}/api/query/status-generate-image/preview`, {
        headers: { cookie },
      });
      const status = (await res.json()) as { status: string };
      if (status.status === 'in_progress') break;
      expect(status.status).toBe('queued');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    first.server.kill('SIGKILL');
    await first.done;
    const ldDir = path.join(data.dir, 'files', 'alice', 'ld');
    expect(fs.existsSync(ldDir) ? fs.readdirSync(ldDir) : []).toEqual([]);

    const second = await start();
    const again = await signIn(second.url, 'alice');
    const result = await waitForPreview(second.url, again);
    expect(result.status).toBe('finished');
    second.server.kill('SIGTERM');
    await second.done;

    expect(fs.readdirSync(ldDir)).toEqual([result.output_image]);
    const db = await openDatabase(data.dir);
    try {
      const jobs = await db
        .selectFrom('jobs')
        .select(['status', 'attempts', 'public_id'])
        .execute();
      expect(jobs).toEqual([{ status: 'finished', attempts: 2, public_id: fields.id }]);
      const images = await db.selectFrom('images').select('filename').execute();
      expect(images).toEqual([{ filename: result.output_image }]);
    } finally {
      await db.destroy();
    }
  }, 120_000);
});
