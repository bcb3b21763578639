import path from 'node:path';
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- issue 24: settings split (i24-config)
import type { Config } from '../config.js';
import type { FileStore } from './file-store.js';
import { LocalFileStore } from './local-file-store.js';

/**
 * The file store the configuration names: files under DATA_DIR/files, or objects in the bucket
 * of FILES_URL. The scratch folders are DATA_DIR/tmp (or `scratchRoot`) either way. The AWS SDK is loaded only for
 * an object store, so the local default does not pay for it at start.
 */
export async function createFileStore(
  config: Pick<Config, 'dataDir' | 's3'> & { filesRetryWindowMs?: number },
  scratchRoot = path.join(config.dataDir, 'tmp'),
): Promise<FileStore> {
  if (!config.s3) return new LocalFileStore(path.join(config.dataDir, 'files'), scratchRoot);
  const { S3FileStore, s3Client, DEFAULT_S3_UPLOADS } = await import('./s3-file-store.js');
  const { DEFAULT_FILES_RETRY } = await import('./s3-retry.js');
  const { bucket, prefix } = config.s3;
  const retry = {
    ...DEFAULT_FILES_RETRY,
    windowMs: config.filesRetryWindowMs ?? DEFAULT_FILES_RETRY.windowMs,
  };
  const client = s3Client(config.s3);
  const store = new S3FileStore(client, bucket, prefix, scratchRoot, DEFAULT_S3_UPLOADS, retry);
  await store.checkBucket();
  return store;
}
