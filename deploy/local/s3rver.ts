// An S3-compatible server for the local cluster (cluster.sh): the tests' s3rver with its front for
// the multipart listing s3rver lacks (server/src/testing/s3rver.ts), on the loopback, with one
// bucket. Usage: node --import tsx s3rver.ts DIRECTORY BUCKET PORT_FILE [PORT]
// It binds PORT, or else a port the OS picks, and writes it to PORT_FILE once it answers, so two
// clusters on one machine never collide; started again on its PORT and DIRECTORY after a crash,
// it serves the same objects at the same address. Stops on SIGTERM.
import fs from 'node:fs';
import { startS3rver } from '../../server/src/testing/s3rver.js';

const [directory, bucket, portFile, fixedPort] = process.argv.slice(2);
if (!directory || !bucket || !portFile) {
  process.stderr.write('usage: node --import tsx s3rver.ts DIRECTORY BUCKET PORT_FILE [PORT]\n');
  process.exit(2);
}
const server = await startS3rver(bucket, { directory, port: Number(fixedPort ?? 0) });
const port = new URL(server.endpoint).port;
// Written whole under another name, then renamed: the script never reads half a number.
fs.writeFileSync(`${portFile}.tmp`, `${port}\n`);
fs.renameSync(`${portFile}.tmp`, portFile);
process.stdout.write(`s3rver listening on ${server.endpoint}, bucket ${bucket}\n`);
process.on('SIGTERM', () => {
  void server.stop().then(() => process.exit(0));
});
