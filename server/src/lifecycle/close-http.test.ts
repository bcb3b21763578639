import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signIn } from '../testing/http.js';
import { startTestServer } from '../testing/test-server.js';

// A stop lets the requests in flight finish, but a client that stopped reading a big download
// cannot hold it: after SHUTDOWN_GRACE_MS its connection is closed.

const BIG = 40_000_000;

async function serverWithDownload(shutdownGraceMs: number) {
  const t = await startTestServer(['alice'], 'embedded', {}, {}, { shutdownGraceMs });
  const cookie = await signIn(t.server.url, 'alice');
  const data = randomBytes(BIG);
  await t.files.write('alice', 'ld', 'big.png', data);
  const res = await fetch(`${t.server.url}/api/images/ld/big.png`, { headers: { cookie } });
  expect(res.status).toBe(200);
  return { t, res, data };
}

describe('stopping with a download in flight (SHUTDOWN_GRACE_MS)', () => {
  it('a download still being read completes before the server stops', async () => {
    const { t, res, data } = await serverWithDownload(120_000);
    if (!res.body) throw new Error('the download has no body');
    const reader = res.body.getReader();
    const chunks: Uint8Array[] = [];
    const first = await reader.read();
    if (first.value) chunks.push(first.value);
    const stopped = t.stop();
    // The rest is read only once the server has stopped taking connections, so the download
    // ends after its close began.
    while (
      await fetch(`${t.server.url}/api/health`).then(
        () => true,
        () => false,
      )
    );
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      chunks.push(next.value);
    }
    const body = Buffer.concat(chunks);
    expect(body.length).toBe(BIG);
    expect(body.equals(data)).toBe(true);
    await stopped;
  }, 60_000);

  it('a download the client stopped reading is cut after the grace, and the stop completes', async () => {
    const { t, res } = await serverWithDownload(200);
    await t.stop();
    await expect(res.arrayBuffer()).rejects.toThrow();
  }, 60_000);
});
