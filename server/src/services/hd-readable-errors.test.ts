import { randomUUID } from 'node:crypto';
import { buildHdCommand, errorText, type HdStatusMessage } from '@tessera/contract';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BuiltinEngine } from '../engines/builtin/builtin-engine.js';
import type { TestClient } from '../testing/test-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

/**
 * What an HD job's failure tells the user (issue 22, part 5): a readable text of the contract,
 * never the server's paths or libvips' words, on a whole server with the real builtin engine.
 */

let t: TestServer;
let alice: TestClient;

beforeEach(async () => {
  t = await startTestServer(['alice'], 'embedded', {
    engine: new BuiltinEngine({ upscaler: 'lanczos' }),
    hdRetryDelayMs: () => 50,
  });
  alice = await t.connect('alice');
});
afterEach(async () => {
  delete process.env.TESSERA_FAULT_DISK_FULL;
  await t.stop();
});

const statuses = () =>
  alice.received
    .filter((m) => m.topic === 'query/status-generate-image/user/alice')
    .map((m) => m.body as unknown as HdStatusMessage);

async function square(): Promise<Buffer> {
  const pixels = Buffer.alloc(1024 * 1024 * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919) % 251;
  return sharp(pixels, { raw: { width: 1024, height: 1024, channels: 3 } })
    .png()
    .toBuffer();
}

/**
 * Places an LD image and indexes it, then replaces its file with `damaged` if given (a file that
 * broke on disk after it was made); orders it at 30x30 and waits for the order's final error.
 */
async function failedOrder(damaged?: Buffer): Promise<HdStatusMessage[]> {
  await t.files.write('alice', 'ld', 'square.png', await square());
  expect((await alice.call('refresh-low-definition')).success).toBe(true);
  if (damaged) await t.files.write('alice', 'ld', 'square.png', damaged);
  const command = buildHdCommand({
    id: randomUUID(),
    user: 'alice',
    image: 'square.png',
    metadata: {},
    sizeLabel: '30x30',
  });
  await alice.send(alice.commandTopic('generate-image'), command);
  const mine = () => statuses().filter((s) => s.id === command.id);
  // Each status message is the event to look again on.
  await alice.waitFor(
    `the error status of HD order ${command.id}`,
    () => (mine().at(-1)?.status === 'error' ? true : undefined),
    30_000,
  );
  return mine();
}

describe('an HD job that fails (issue 22, part 5)', () => {
  it('on a full disk tells the user the disk is full, never a path', async () => {
    process.env.TESSERA_FAULT_DISK_FULL = 'hd-thumbnails:write';
    const messages = await failedOrder();
    expect(messages.at(-1)?.error).toBe(errorText('DISK_FULL'));
    const told = JSON.stringify(messages);
    expect(told).not.toContain(t.dataDir);
    expect(told).not.toMatch(/ENOSPC|\.tmp-/);
  });

  it('on a damaged LD image tells the user it cannot be read, not libvips’ words', async () => {
    const png = await square();
    const messages = await failedOrder(png.subarray(0, Math.floor(png.length / 2)));
    expect(messages.at(-1)?.error).toBe(errorText('IMAGE_UNREADABLE'));
    expect(JSON.stringify(messages)).not.toMatch(/libspng|load_buffer|vips|Builtin engine/i);
  });
});
