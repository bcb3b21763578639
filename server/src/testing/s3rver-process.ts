import fs from 'node:fs';
import path from 'node:path';
import { captureOutput, spawnEntry } from './processes.js';

/** s3rver as its own process, as the local cluster runs it: a test can SIGKILL it. */
export interface S3Process {
  endpoint: string;
  port: number;
  child: ReturnType<typeof spawnEntry>;
}

/**
 * The deploy/local s3rver keeping `bucket` in `folder`, on `port` (0: one the OS picks); the
 * same folder and port again bring the same store back after a kill.
 */
export async function startS3Process(folder: string, bucket: string, port = 0): Promise<S3Process> {
  const portFile = path.join(path.dirname(folder), `s3-port-${Date.now()}`);
  const child = spawnEntry(
    '../../deploy/local/s3rver.ts',
    [folder, bucket, portFile, String(port)],
    {},
  );
  await captureOutput(child).waitFor(/s3rver listening on (\S+)/, 60_000);
  const bound = Number(fs.readFileSync(portFile, 'utf8').trim());
  return { endpoint: `http://127.0.0.1:${bound}`, port: bound, child };
}
