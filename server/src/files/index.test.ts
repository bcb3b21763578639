import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.js';
import { startS3rver, type RunningS3rver } from '../testing/s3rver.js';
import { createFileStore } from './index.js';
import { LocalFileStore } from './local-file-store.js';
import { S3FileStore } from './s3-file-store.js';

let s3: RunningS3rver;
let data: ReturnType<typeof tempDir>;
beforeAll(async () => {
  s3 = await startS3rver();
  data = tempDir();
});
afterAll(async () => {
  await s3.stop();
  data.remove();
});

describe('createFileStore', () => {
  it('keeps files in DATA_DIR/files without FILES_URL', async () => {
    const files = await createFileStore({ dataDir: data.dir });
    expect(files).toBeInstanceOf(LocalFileStore);
  });

  it('keeps them in the bucket with it, scratch folders in DATA_DIR/tmp', async () => {
    const files = await createFileStore({ dataDir: data.dir, s3: s3.settings('p') });
    expect(files).toBeInstanceOf(S3FileStore);
    await files.write('alice', 'ld', 'wall.png', Buffer.from('wall'));
    expect((await files.readBuffer('alice', 'ld', 'wall.png')).toString()).toBe('wall');
    const scratch = await files.openScratch();
    expect(path.dirname(path.dirname(scratch.newFile('png').path))).toBe(
      path.join(data.dir, 'tmp'),
    );
    await scratch.dispose();
  });

  it('stops the start, naming the bucket, when the bucket cannot be reached', async () => {
    await expect(
      createFileStore({ dataDir: data.dir, s3: { ...s3.settings(), bucket: 'no-such-bucket' } }),
    ).rejects.toThrow(/The bucket 'no-such-bucket' of FILES_URL cannot be reached/);
  });
});
