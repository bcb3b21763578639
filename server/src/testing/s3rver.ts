import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { s3Client, type S3Settings } from '../files/s3-file-store.js';
import { tempDir } from './fixtures.js';

/** s3rver's fixed account. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface RunningS3rver {
  /** Settings of a store in a bucket the test created, under `prefix`. */
  settings(prefix?: string): S3Settings;
  endpoint: string;
  bucket: string;
  stop(): Promise<void>;
}

/** Where and how to run it: a folder to keep the objects in (kept), a port (0: a free one). */
export interface S3rverOptions {
  directory?: string;
  port?: number;
}

/**
 * An S3-compatible server (s3rver, from npm) in this process on a loopback port, keeping its
 * objects in a folder (a temporary one unless given), with one bucket created through the S3
 * API. The tests use it, and so does the local cluster (`deploy/local/s3rver.ts`).
 *
 * s3rver 3.7 has no ListMultipartUploads and no AbortMultipartUpload, which the store's
 * cleanup after a crash (and lib-storage, after a failed upload) needs: a small front answers
 * those two requests from s3rver's own folder of unfinished uploads
 * (`<bucket>/._S3rver_uploads/<uploadId>/`) and hands every other request to s3rver.
 */
export async function startS3rver(
  bucket = 'tessera-test',
  options: S3rverOptions = {},
): Promise<RunningS3rver> {
  const data = options.directory
    ? { dir: options.directory, remove: () => undefined }
    : tempDir('tessera-s3-');
  await fsp.mkdir(data.dir, { recursive: true });
  const s3rver = new S3rver({ directory: data.dir, silent: true });
  const handle = s3rver.callback();
  const uploads = (name: string) => path.join(data.dir, name, '._S3rver_uploads');
  const server = http.createServer((req, res) => {
    multipartFront(req, res, uploads).then(
      (answered) => {
        if (!answered) handle(req, res);
      },
      (err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const settings = (prefix = ''): S3Settings => ({
    bucket,
    prefix,
    endpoint,
    region: 'us-east-1',
    credentials: CREDENTIALS,
    forcePathStyle: true,
  });
  const client = s3Client(settings());
  // A folder kept from an earlier run (a restart after a crash) has the bucket already.
  await client.send(new CreateBucketCommand({ Bucket: bucket })).catch((err: unknown) => {
    const name = (err as { name?: string }).name;
    if (name !== 'BucketAlreadyExists' && name !== 'BucketAlreadyOwnedByYou') throw err;
  });
  client.destroy();
  return {
    settings,
    endpoint,
    bucket,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      data.remove();
    },
  };
}

/** Answers ListMultipartUploads and AbortMultipartUpload; false for any other request. */
async function multipartFront(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  uploadsOf: (bucket: string) => string,
): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://s3rver');
  const [bucket = '', ...keyParts] = url.pathname
    .split('/')
    .filter(Boolean)
    .map(decodeURIComponent);
  if (req.method === 'GET' && keyParts.length === 0 && url.searchParams.has('uploads')) {
    const prefix = url.searchParams.get('prefix') ?? '';
    const dir = uploadsOf(bucket);
    const found: { key: string; id: string; initiated: Date }[] = [];
    for (const id of await fsp.readdir(dir).catch(() => [])) {
      const key = await fsp.readFile(path.join(dir, id, 'key'), 'utf8').catch(() => undefined);
      if (key === undefined || !key.startsWith(prefix)) continue;
      found.push({ key, id, initiated: (await fsp.stat(path.join(dir, id))).birthtime });
    }
    found.sort((a, b) => (a.key === b.key ? a.id.localeCompare(b.id) : a.key < b.key ? -1 : 1));
    const entries = found.map(
      (u) =>
        `<Upload><Key>${xml(u.key)}</Key><UploadId>${xml(u.id)}</UploadId>` +
        `<Initiated>${u.initiated.toISOString()}</Initiated></Upload>`,
    );
    await drain(req);
    res.setHeader('Content-Type', 'application/xml');
    res.end(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
        `<Bucket>${xml(bucket)}</Bucket><Prefix>${xml(prefix)}</Prefix>` +
        `<MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>${entries.join('')}` +
        '</ListMultipartUploadsResult>',
    );
    return true;
  }
  const uploadId = url.searchParams.get('uploadId');
  if (req.method === 'DELETE' && keyParts.length > 0 && uploadId !== null) {
    await drain(req);
    const upload = path.join(uploadsOf(bucket), uploadId);
    const known =
      /^[\w-]+$/.test(uploadId) &&
      (await fsp.readFile(path.join(upload, 'key'), 'utf8').catch(() => undefined)) ===
        keyParts.join('/');
    if (!known) {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'application/xml');
      res.end(
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code>' +
          '<Message>The specified upload does not exist.</Message></Error>',
      );
      return true;
    }
    await fsp.rm(upload, { recursive: true, force: true });
    res.statusCode = 204;
    res.end();
    return true;
  }
  return false;
}

async function drain(req: http.IncomingMessage): Promise<void> {
  for await (const chunk of req) void chunk;
}

function xml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
