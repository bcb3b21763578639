import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bricksPng, postPreview, previewFields, signIn, waitForPreview } from './testing/http.js';
import {
  createScratchPostgres,
  postgresMissing,
  type ScratchPostgres,
} from './testing/postgres.js';
import { startTestServer, type TestServer } from './testing/test-server.js';

// The whole server with DATABASE_URL set: the store on a PostgreSQL database of its own (created
// and dropped here), the rest as embedded as ever. Skipped with a notice without PostgreSQL,
// except in CI.
const missing = await postgresMissing();

describe.skipIf(missing)('[#16] the server on PostgreSQL', () => {
  let database: ScratchPostgres;
  let t: TestServer;
  let base: string;
  let alice: string;

  beforeAll(async () => {
    database = await createScratchPostgres();
    t = await startTestServer(['alice'], 'embedded', {}, {}, { databaseUrl: database.url });
    base = `http://127.0.0.1:${t.server.port}`;
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    await database?.drop();
  });

  it('logs a user in, lists images, and makes a preview end to end, all in PostgreSQL', async () => {
    alice = await signIn(base, 'alice');
    const client = await t.connect('alice');
    expect(await client.call('list-low-definition', { page: 1, size: 100 })).toMatchObject({
      images: [],
      total: 0,
    });

    const fields = previewFields('alice', { Kseed: '77' });
    const posted = await postPreview(base, alice, {
      file: { name: 'bricks.png', data: await bricksPng() },
      fields,
    });
    expect(posted.status).toBe(202);
    const done = await waitForPreview(base, alice, 60_000, () => t.nextJobChange('alice'));
    expect(done.status).toBe('finished');
    const filename = done.output_image ?? '';
    expect(filename).toMatch(/^bricks-[0-9a-f]{6}\.png$/);

    const image = await fetch(`${base}/api/images/ld/${filename}`, { headers: { cookie: alice } });
    expect(image.status).toBe(200);
    expect((await client.listedImage('ld', filename))?.metadata).toMatchObject({ kseed: 77 });

    // The rows are PostgreSQL's: the job and the image, and no SQLite file in the data folder.
    const job = await t.db
      .selectFrom('jobs')
      .select(['status', 'output'])
      .where('public_id', '=', fields.id ?? '')
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'finished', output: filename });
    const row = await t.db
      .selectFrom('images')
      .innerJoin('users', 'users.id', 'images.owner_id')
      .select(['users.username', 'images.kind', 'images.seed_key'])
      .where('images.filename', '=', filename)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ username: 'alice', kind: 'ld', seed_key: '77' });
    expect(fs.existsSync(path.join(t.dataDir, 'tessera.sqlite'))).toBe(false);
  });
});
