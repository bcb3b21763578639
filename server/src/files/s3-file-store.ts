import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { isSafeFileName } from '@tessera/contract';
import { faultPoint } from '../runtime/faults.js';
import type {
  ByteRange,
  FileArea,
  FileStore,
  InterruptedRemoval,
  PendingRemoval,
  Scratch,
  StoredFile,
} from './file-store.js';
import {
  FILE_AREAS,
  checkedArea,
  checkedName,
  checkedOwner,
  HIDDEN_PREFIX,
  REMOVING,
} from './places.js';
import { DEFAULT_FILES_RETRY, retryingStore, type FileStoreRetry } from './s3-retry.js';
import { ScratchFolders } from './scratch-folders.js';

/** Where the objects are and how to reach them (FILES_URL and the S3_* settings). */
export interface S3Settings {
  bucket: string;
  /** Put before every key, without slashes at either end; '' for none. */
  prefix: string;
  /** An S3-compatible server's address; unset: AWS's own for the region. */
  endpoint?: string;
  region: string;
  /** Unset: the AWS SDK's default credential chain (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** `<endpoint>/<bucket>/<key>` rather than `<bucket>.<endpoint>/<key>`, as most servers but AWS want. */
  forcePathStyle: boolean;
}

export interface S3UploadOptions {
  /** Files larger than this go up in parts of this size; S3 wants at least 5 MiB. */
  partSize: number;
  /** Parts on their way at once: memory is about (queueSize + 1) × partSize per write. */
  queueSize: number;
}

export const DEFAULT_S3_UPLOADS: S3UploadOptions = { partSize: 8 * 1024 * 1024, queueSize: 2 };

/** The SDK's client for these settings. */
export function s3Client(settings: S3Settings, extra: S3ClientConfig = {}): S3Client {
  return new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    ...extra,
  });
}

/**
 * Image files as objects of an S3 bucket, keyed `<prefix>/<owner>/<area>/<name>`; the scratch
 * folders on this machine's disk. What is atomic and what is not: docs/scale-out.md.
 */
export class S3FileStore implements FileStore {
  private readonly scratch: ScratchFolders;
  private readonly root: string;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    prefix: string,
    scratchRoot: string,
    private readonly uploads: S3UploadOptions = DEFAULT_S3_UPLOADS,
    private readonly retry: FileStoreRetry = DEFAULT_FILES_RETRY,
  ) {
    this.root = prefix ? `${prefix}/` : '';
    this.scratch = new ScratchFolders(scratchRoot, {
      copyOut: (owner, area, name, local) => this.download(owner, area, name, local),
      putIn: (local, owner, area, name) => this.uploadFile(local, owner, area, name),
    });
  }

  /** At start: fails, naming the bucket, when it cannot be reached with these settings. */
  async checkBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      throw new Error(`The bucket '${this.bucket}' of FILES_URL cannot be reached (${reason})`, {
        cause: err,
      });
    }
  }

  /** Readiness: one request, never retried (a probe must say "down" at once). */
  async check(signal?: AbortSignal): Promise<void> {
    await this.client.send(
      new HeadBucketCommand({ Bucket: this.bucket }),
      signal ? { abortSignal: signal } : {},
    );
  }

  /** One request, tried again through an outage (s3-retry.ts). */
  private send<T>(request: () => Promise<T>): Promise<T> {
    return retryingStore(this.retry, request);
  }

  /** The key prefix of an area's objects, ending in '/'. */
  private dir(owner: string, area: FileArea): string {
    return `${this.root}${checkedArea(owner, area).join('/')}/`;
  }

  private key(owner: string, area: FileArea, name: string): string {
    const dir = this.dir(owner, area);
    return dir + checkedName(name);
  }

  async write(
    owner: string,
    area: FileArea,
    name: string,
    data: Buffer | Readable,
  ): Promise<StoredFile> {
    // A stream can be sent once: only a buffer's upload is tried again through an outage.
    const key = this.key(owner, area, name);
    if (Buffer.isBuffer(data)) return this.send(() => this.upload(key, area, name, data));
    return retryingStore({ ...this.retry, windowMs: 0 }, () => this.upload(key, area, name, data));
  }

  /**
   * A (multipart) upload: S3 shows the object only once it is complete, replacing the old one
   * at once. When the data fails, the upload is aborted, its parts deleted.
   */
  private async upload(
    key: string,
    area: FileArea,
    name: string,
    data: Buffer | Readable,
  ): Promise<StoredFile> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: data },
      partSize: this.uploads.partSize,
      queueSize: this.uploads.queueSize,
      leavePartsOnError: false,
    });
    // For the crash tests: a process killed here leaves an unfinished multipart upload.
    upload.on('httpUploadProgress', () => faultPoint(`${area}:part-uploaded`));
    await upload.done();
    const stored = await this.statOnce(key, name);
    if (!stored) throw new Error(`The upload of ${key} completed but the object is not there`);
    return stored;
  }

  read(owner: string, area: FileArea, name: string, range?: ByteRange): Readable {
    const key = this.key(owner, area, name);
    const { client, bucket } = this;
    const send = this.send.bind(this);
    // The request starts when the stream is first read; a missing object fails the stream.
    return Readable.from(
      (async function* () {
        const object = await send(() =>
          client.send(
            new GetObjectCommand({
              Bucket: bucket,
              Key: key,
              ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
            }),
          ),
        );
        // Node's SDK gives the response as a Readable; returning early destroys it.
        yield* object.Body as Readable;
      })(),
      { objectMode: false },
    );
  }

  readBuffer(owner: string, area: FileArea, name: string): Promise<Buffer> {
    return buffer(this.read(owner, area, name));
  }

  stat(owner: string, area: FileArea, name: string): Promise<StoredFile | undefined> {
    return this.statKey(this.key(owner, area, name), name);
  }

  private statKey(key: string, name: string): Promise<StoredFile | undefined> {
    return this.send(() => this.statOnce(key, name));
  }

  private async statOnce(key: string, name: string): Promise<StoredFile | undefined> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { name, bytes: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date() };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async list(owner: string, area: FileArea): Promise<StoredFile[]> {
    const dir = this.dir(owner, area);
    const files: StoredFile[] = [];
    for await (const object of this.objects(dir)) {
      const name = object.key.slice(dir.length);
      if (isSafeFileName(name)) files.push({ name, bytes: object.bytes, modifiedAt: object.at });
    }
    return files;
  }

  /** The objects right under a key prefix (not deeper), page by page. */
  private async *objects(prefix: string): AsyncGenerator<{ key: string; bytes: number; at: Date }> {
    let token: string | undefined;
    do {
      const page = await this.send(() =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: prefix,
            Delimiter: '/',
            ...(token ? { ContinuationToken: token } : {}),
          }),
        ),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield { key: object.Key, bytes: object.Size ?? 0, at: object.LastModified ?? new Date() };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Copies the object to a hidden key, then deletes it: two requests, not one atomic step. */
  async prepareRemoval(owner: string, area: FileArea, name: string): Promise<PendingRemoval> {
    const target = this.key(owner, area, name);
    const aside = `${this.dir(owner, area)}${HIDDEN_PREFIX}removing-${randomBytes(6).toString('hex')}-${name}`;
    try {
      await this.copy(target, aside);
    } catch (err) {
      if (isNotFound(err)) return NOTHING_TO_REMOVE;
      throw err;
    }
    await this.delete(target);
    return this.removalOf(aside, target);
  }

  private removalOf(aside: string, target: string): PendingRemoval {
    return {
      commit: () => this.delete(aside),
      rollback: async () => {
        await this.copy(aside, target);
        await this.delete(aside);
      },
    };
  }

  /** Aborts the owner's unfinished multipart uploads (a crash's), which deletes their parts. */
  async clearTemporary(owner: string): Promise<number> {
    const prefix = `${this.root}${checkedOwner(owner)}/`;
    let aborted = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await this.send(() =>
        this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.bucket,
            Prefix: prefix,
            ...(keyMarker ? { KeyMarker: keyMarker } : {}),
            ...(uploadIdMarker ? { UploadIdMarker: uploadIdMarker } : {}),
          }),
        ),
      );
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId) continue;
        const { Key, UploadId } = upload;
        await this.send(() =>
          this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId })),
        );
        aborted++;
      }
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
    return aborted;
  }

  async interruptedRemovals(owner: string): Promise<InterruptedRemoval[]> {
    const found: InterruptedRemoval[] = [];
    for (const area of FILE_AREAS) {
      const dir = this.dir(owner, area);
      for await (const object of this.objects(`${dir}${HIDDEN_PREFIX}removing-`)) {
        const name = REMOVING.exec(object.key.slice(dir.length))?.[1];
        if (!name || !isSafeFileName(name)) continue;
        found.push({ area, name, ...this.removalOf(object.key, dir + name) });
      }
    }
    return found;
  }

  openScratch(): Promise<Scratch> {
    return this.scratch.open();
  }

  clearScratch(): Promise<number> {
    return this.scratch.clear();
  }

  /** Downloads the object to `local`; nothing is left there when the download fails. */
  private async download(owner: string, area: FileArea, name: string, local: string) {
    const body = this.read(owner, area, name);
    try {
      await pipeline(body, fs.createWriteStream(local, { flags: 'wx' }));
    } catch (err) {
      await fsp.rm(local, { force: true });
      throw err;
    }
  }

  /** Uploads a scratch file, then removes it from the scratch folder. */
  private async uploadFile(local: string, owner: string, area: FileArea, name: string) {
    const key = this.key(owner, area, name);
    // Read afresh at each try: a failed try consumed the stream it had.
    const stored = await this.send(() => this.upload(key, area, name, fs.createReadStream(local)));
    await fsp.rm(local, { force: true });
    return stored;
  }

  private async copy(from: string, to: string): Promise<void> {
    const source = `${this.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
    await this.send(() =>
      this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: source })),
    );
  }

  private async delete(key: string): Promise<void> {
    await this.send(() =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })),
    );
  }
}

/** The removal of a file that was not there: nothing to commit or roll back. */
const NOTHING_TO_REMOVE: PendingRemoval = {
  commit: () => Promise.resolve(),
  rollback: () => Promise.resolve(),
};

/** S3's answers for a missing object or key: 404 with NoSuchKey (GET, copy) or NotFound (HEAD). */
function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}
