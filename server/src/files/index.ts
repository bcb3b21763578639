import path from 'node:path';
import type { FileStore } from './file-store.js';
import { LocalFileStore } from './local-file-store.js';
import type { FileStoreSettings } from './settings.js';

/**
 * The file store its settings name: files under DATA_DIR/files, or objects in the bucket
 * of FILES_URL. The scratch folders are DATA_DIR/tmp (or `scratchRoot`) either way. The AWS SDK is loaded only for
 * an object store, so the local default does not pay for it at start.
 */
export async function createFileStore(
  settings: FileStoreSettings,
  scratchRoot = path.join(settings.dataDir, 'tmp'),
): Promise<FileStore> {
  if (!settings.s3) return new LocalFileStore(path.join(settings.dataDir, 'files'), scratchRoot);
  const { S3FileStore, s3Client, DEFAULT_S3_UPLOADS } = await import('./s3-file-store.js');
  const { DEFAULT_FILES_RETRY } = await import('./s3-retry.js');
  const { bucket, prefix } = settings.s3;
  const retry = {
    ...DEFAULT_FILES_RETRY,
    windowMs: settings.filesRetryWindowMs ?? DEFAULT_FILES_RETRY.windowMs,
  };
  const client = s3Client(settings.s3);
  const store = new S3FileStore(client, bucket, prefix, scratchRoot, DEFAULT_S3_UPLOADS, retry);
  await store.checkBucket();
  return store;
}
