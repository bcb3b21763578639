import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { imageUrl } from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApiToken, statusWithToken } from './support/api-tokens.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, userFolder, type User } from './support/session.js';

/**
 * The example scripts of docs/examples (issue 30, part 1): each makes a preview and orders its
 * HD image with an API token against a live server, as a studio's pipeline would, and the HD
 * image is then there. The TypeScript one always; the curl one where curl is installed.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EXAMPLES = path.join(ROOT, 'docs/examples');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const curlMissing = spawnSync('curl', ['--version']).status !== 0;
const SCRIPT_TIMEOUT_MS = 240_000;

/** Runs a script to its end; its exit code and what it printed on stdout and stderr. */
function run(command: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, cwd: EXAMPLES });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the API token example scripts', () => {
  let server: RunningServer;
  let user: User;
  let token: string;
  let reference: string;

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos', JOB_CONCURRENCY: '1' });
    user = addNewUser(server, 'script');
    token = await makeApiToken(server, user, ['read', 'generate']);
    reference = path.join(server.dataDir, 'reference.png');
    const pixels = Buffer.alloc(96 * 96 * 3);
    for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919) % 251;
    await sharp(pixels, { raw: { width: 96, height: 96, channels: 3 } })
      .png()
      .toFile(reference);
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function expectHdMade(stdout: string): Promise<void> {
    const hd = stdout.trim().split('\n').at(-1) ?? '';
    expect(hd).toMatch(/_30x30\.png$/);
    expect(fs.existsSync(path.join(userFolder(server, user.username, 'hd'), hd))).toBe(true);
    // And the token downloads it.
    expect(await statusWithToken(server, imageUrl('hd', hd), token)).toBe(200);
  }

  const env = () => ({
    TESSERA_URL: server.url,
    TESSERA_TOKEN: token,
    TESSERA_USER: user.username,
  });

  it(
    'hd-with-token.mts (fetch) makes a preview, orders its HD and waits for it',
    async () => {
      const result = await run(TSX, ['hd-with-token.mts', reference], env());
      expect(result.code, result.stderr).toBe(0);
      await expectHdMade(result.stdout);
    },
    SCRIPT_TIMEOUT_MS,
  );

  it.skipIf(curlMissing)(
    'hd-with-token.sh (curl) does the same',
    async () => {
      const result = await run('sh', ['hd-with-token.sh', reference], env());
      expect(result.code, result.stderr).toBe(0);
      await expectHdMade(result.stdout);
    },
    SCRIPT_TIMEOUT_MS,
  );

  it('stops with the server’s text when the token is refused', async () => {
    const result = await run(TSX, ['hd-with-token.mts', reference], {
      ...env(),
      TESSERA_TOKEN: 'tsr_revoked-or-never-made',
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('401');
  });
});
