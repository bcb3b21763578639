import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import {
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.js';
import { memoryWatch } from '../testing/memory.js';
import { finished, spawnEntry } from '../testing/processes.js';
import { startS3rver, type RunningS3rver } from '../testing/s3rver.js';
import { describeFileStoreContract } from './file-store-contract.suite.js';
import { s3Client, S3FileStore } from './s3-file-store.js';

let s3: RunningS3rver;
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(() => s3.stop());

/** A store under a prefix of its own in the test's bucket, with its client and scratch folder. */
function s3Store(partSize = 5 * 1024 * 1024) {
  const prefix = `t-${randomBytes(4).toString('hex')}/files`;
  const settings = s3.settings(prefix);
  const client = s3Client(settings);
  const scratch = tempDir();
  const store = new S3FileStore(client, settings.bucket, prefix, path.join(scratch.dir, 'tmp'), {
    partSize,
    queueSize: 2,
  });
  return {
    prefix,
    client,
    store,
    destroy() {
      client.destroy();
      scratch.remove();
    },
  };
}

/** Starts a multipart upload and sends one part, as a process that died mid-write leaves it. */
async function leaveUpload(client: S3Client, key: string): Promise<void> {
  const { UploadId } = await client.send(
    new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: key }),
  );
  await client.send(
    new UploadPartCommand({
      Bucket: s3.bucket,
      Key: key,
      UploadId,
      PartNumber: 1,
      Body: randomBytes(1000),
    }),
  );
}

async function unfinishedUploads(client: S3Client, prefix: string): Promise<string[]> {
  const page = await client.send(
    new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: `${prefix}/` }),
  );
  return (page.Uploads ?? []).map((u) => u.Key ?? '');
}

async function keys(client: S3Client, prefix: string): Promise<string[]> {
  const page = await client.send(
    new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${prefix}/` }),
  );
  return (page.Contents ?? []).map((o) => o.Key ?? '').sort();
}

/** `total` bytes made chunk by chunk, never held whole; byte i is (i * 7 + seed) mod 256. */
function generated(total: number, seed = 0, chunk = 1024 * 1024): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const size = Math.min(chunk, total - sent);
      const bytes = Buffer.allocUnsafe(size);
      for (let i = 0; i < size; i++) bytes[i] = ((sent + i) * 7 + seed) & 0xff;
      sent += size;
      this.push(bytes);
    },
  });
}

describeFileStoreContract('S3 (s3rver)', () => {
  const under = s3Store();
  return Promise.resolve({
    store: under.store,
    leaveTemporary: (owner, area, name) =>
      leaveUpload(under.client, `${under.prefix}/${owner}/${area}/${name}`),
    destroy: () => Promise.resolve(under.destroy()),
  });
});

describe('S3FileStore on s3rver', () => {
  let under: ReturnType<typeof s3Store>;
  beforeEach(() => {
    under = s3Store();
  });
  afterEach(() => under.destroy());

  it('keeps files at <prefix>/<owner>/<area>/<name>, a removal under a hidden key beside them', async () => {
    const { store, client, prefix } = under;
    await store.write('alice', 'ld', 'wall.png', Buffer.from('wall'));
    await store.write('alice', 'hd', 'wall_30x30.png', Buffer.from('hd'));
    expect(await keys(client, prefix)).toEqual([
      `${prefix}/alice/hd/wall_30x30.png`,
      `${prefix}/alice/ld/wall.png`,
    ]);
    await store.prepareRemoval('alice', 'ld', 'wall.png');
    const [hd, aside, ...rest] = await keys(client, prefix);
    expect(hd).toBe(`${prefix}/alice/hd/wall_30x30.png`);
    expect(aside).toMatch(new RegExp(`^${prefix}/alice/ld/\\.removing-[0-9a-f]{12}-wall\\.png$`));
    expect(rest).toEqual([]);
  });

  it('streams a 150 MB file up in parts and down again without holding it in memory', async () => {
    const { store } = under;
    const total = 150 * 1024 * 1024;
    const memory = memoryWatch();
    try {
      const stored = await store.write('alice', 'hd', 'huge.png', generated(total, 3));
      expect(stored.bytes).toBe(total);
      expect((await store.stat('alice', 'hd', 'huge.png'))?.bytes).toBe(total);

      // Read back and compare with the generator's bytes, chunk by chunk.
      let offset = 0;
      let mismatches = 0;
      for await (const chunk of store.read('alice', 'hd', 'huge.png')) {
        const bytes = chunk as Buffer;
        for (let i = 0; i < bytes.length; i += 4099) {
          if (bytes[i] !== ((offset + i) * 7 + 3) % 256) mismatches++;
        }
        offset += bytes.length;
      }
      expect(offset).toBe(total);
      expect(mismatches).toBe(0);
    } finally {
      memory.stop();
    }
    // What is alive: the parts on their way, not the file (s3rver, in this process, included).
    expect(memory.liveGrowth()).toBeLessThan(64 * 1024 * 1024);
    // RSS only reported: freed memory goes back to the system as the allocator pleases.
    console.info(`S3 150 MB round trip: RSS +${Math.round(memory.rssGrowth() / 1048576)} MB`);
  }, 120_000);

  it('reads byte ranges: the first bytes, a middle, the tail, across a part boundary', async () => {
    const { store } = under;
    const partSize = 5 * 1024 * 1024;
    const data = await buffer(generated(2 * partSize + 1234, 11));
    await store.write('alice', 'hd', 'parts.png', Readable.from([data]));
    for (const [start, end] of [
      // Not 0-0: s3rver 3.7 answers `bytes=0-0` with the whole object (real S3 does not).
      [0, 1],
      [100, 199],
      [partSize - 10, partSize + 9],
      [data.length - 5, data.length - 1],
    ] as const) {
      const range = await buffer(store.read('alice', 'hd', 'parts.png', { start, end }));
      expect(range.equals(data.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
  });

  it('shows nothing of a multipart write whose source broke off, and leaves no parts behind', async () => {
    const { store, client, prefix } = under;
    await store.write('alice', 'hd', 'big.png', Buffer.from('kept'));
    const source = generated(30 * 1024 * 1024, 5);
    let sent = 0;
    source.on('data', (chunk: Buffer) => {
      sent += chunk.length;
      // Two parts are on their way or up by now: the upload is a multipart one.
      if (sent >= 12 * 1024 * 1024) source.destroy(new Error('the engine died'));
    });
    await expect(store.write('alice', 'hd', 'big.png', source)).rejects.toThrow('the engine died');
    expect((await store.readBuffer('alice', 'hd', 'big.png')).toString()).toBe('kept');
    expect((await store.list('alice', 'hd')).map((f) => f.name)).toEqual(['big.png']);
    expect(await unfinishedUploads(client, prefix)).toEqual([]);
    expect(await store.clearTemporary('alice')).toBe(0);
  });

  it('aborts at start the multipart uploads a crash left, of that owner only', async () => {
    const { store, client, prefix } = under;
    await leaveUpload(client, `${prefix}/alice/hd/big.png`);
    await leaveUpload(client, `${prefix}/alice/ld/wall.png`);
    await leaveUpload(client, `${prefix}/bob/hd/big.png`);
    expect(await store.list('alice', 'hd')).toEqual([]);
    expect(await store.stat('alice', 'hd', 'big.png')).toBeUndefined();

    expect(await store.clearTemporary('alice')).toBe(2);
    expect(await unfinishedUploads(client, prefix)).toEqual([`${prefix}/bob/hd/big.png`]);
    expect(await store.clearTemporary('alice')).toBe(0);
    expect(await store.clearTemporary('bob')).toBe(1);
  });

  it('leaves an unfinished upload, never a half object, when the process dies mid-write; clearTemporary aborts it', async () => {
    const { store, client, prefix } = under;
    await store.write('alice', 'hd', 'big.png', Buffer.from('kept'));
    const scratch = tempDir();
    const run = (faultPoint?: string) =>
      finished(
        spawnEntry('testing/s3-write-entry.ts', [], {
          S3_WRITE_SETTINGS: JSON.stringify(s3.settings(prefix)),
          S3_WRITE_BYTES: String(30 * 1024 * 1024),
          S3_WRITE_NAME: 'big.png',
          S3_WRITE_SCRATCH: scratch.dir,
          ...(faultPoint ? { TESSERA_FAULT_POINT: faultPoint } : {}),
        }),
      );
    try {
      // SIGKILL at its fault point, after the first of six parts is up.
      const crashed = await run('hd:part-uploaded');
      expect(crashed.code, crashed.stderr).toBeNull();
      expect(crashed.stdout).not.toContain('written');
      expect(await unfinishedUploads(client, prefix)).toEqual([`${prefix}/alice/hd/big.png`]);
      expect((await store.readBuffer('alice', 'hd', 'big.png')).toString()).toBe('kept');
      expect((await store.list('alice', 'hd')).map((f) => [f.name, f.bytes])).toEqual([
        ['big.png', 4],
      ]);

      expect(await store.clearTemporary('alice')).toBe(1);
      expect(await unfinishedUploads(client, prefix)).toEqual([]);
      expect(await store.clearTemporary('alice')).toBe(0);

      // Without the fault point the same write completes.
      const completed = await run();
      expect(completed.stdout, completed.stderr).toContain(`written ${30 * 1024 * 1024}`);
      expect((await store.stat('alice', 'hd', 'big.png'))?.bytes).toBe(30 * 1024 * 1024);
    } finally {
      scratch.remove();
    }
  }, 60_000);

  it('refuses names that are paths before any request: nothing is written', async () => {
    const { store, client, prefix } = under;
    await expect(store.write('alice', 'ld', '../../x.png', Buffer.from('x'))).rejects.toThrow(
      'Invalid file name',
    );
    await expect(store.write('..', 'ld', 'x.png', Buffer.from('x'))).rejects.toThrow(
      'Invalid owner',
    );
    expect(() => store.read('alice', 'ld', '../ld/x.png')).toThrow('Invalid file name');
    await expect(store.clearTemporary('../alice')).rejects.toThrow('Invalid owner');
    await expect(store.interruptedRemovals('a/b')).rejects.toThrow('Invalid owner');
    expect(await keys(client, prefix)).toEqual([]);
    expect(await keys(client, prefix.split('/')[0] ?? '')).toEqual([]);
  });
});
