import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { API_ROUTES } from '@tessera/contract';
import { docker } from './docker.js';

/** Bounds of the waits; a wait that passes returns at once. */
const HEALTHY_TIMEOUT_MS = 120_000;
const PREVIEW_TIMEOUT_MS = 180_000;

/** A free port of the host (the containers share the host's network). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface RunOptions {
  env?: Record<string, string>;
  /** `source:target[:ro]`, a named volume or a host path. */
  volumes?: string[];
}

/**
 * `docker run -d` of the image on the host's network, with its HEALTHCHECK every 2 s (the image's
 * own interval is 30 s) so the test sees it pass soon.
 */
export async function runContainer(name: string, image: string, options: RunOptions = {}) {
  const env = Object.entries(options.env ?? {}).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
  const volumes = (options.volumes ?? []).flatMap((v) => ['--volume', v]);
  await docker([
    'run',
    '--detach',
    '--name',
    name,
    '--network',
    'host',
    '--health-interval',
    '2s',
    ...env,
    ...volumes,
    image,
  ]);
}

/** Waits until the image's HEALTHCHECK reports the container healthy; throws if it stops. */
export async function waitHealthy(name: string): Promise<void> {
  const deadline = Date.now() + HEALTHY_TIMEOUT_MS;
  for (;;) {
    const state = (
      await docker(['inspect', '--format', '{{.State.Status}} {{.State.Health.Status}}', name])
    ).trim();
    if (state === 'running healthy') return;
    if (!state.startsWith('running') || Date.now() > deadline) {
      throw new Error(`${name} is not healthy (${state}):\n${await containerLogs(name)}`);
    }
    // Docker tells a health change only through inspect (or its event stream).
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export async function containerLogs(name: string): Promise<string> {
  return docker(['logs', '--tail', '200', name], { withStderr: true }).catch((err: unknown) =>
    String(err),
  );
}

/** Removes the containers and volumes, whatever state they are in. */
export async function removeAll(containers: string[], volumes: string[] = []): Promise<void> {
  // --volumes: the anonymous volume of /data goes with its container.
  for (const name of containers) {
    await docker(['rm', '--force', '--volumes', name]).catch(() => undefined);
  }
  for (const volume of volumes) {
    await docker(['volume', 'rm', '--force', volume]).catch(() => undefined);
  }
}

/**
 * `npm run users -- add NAME` inside the container, as an operator would (password on stdin),
 * through the image's entry point: `docker exec` skips it, and with it the NAME_FILE settings.
 */
export async function addUserIn(name: string, username: string, password: string) {
  const command = ['/app/entrypoint.sh', 'npm', 'run', 'users', '--', 'add', username];
  await docker(['exec', '--interactive', name, ...command], { input: `${password}\n` });
}

/** A signed-in user of a server: the session cookie from POST /api/login. */
export async function signIn(baseUrl: string, username: string, password: string) {
  const res = await fetch(`${baseUrl}${API_ROUTES.login}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`login of ${username}: ${res.status}`);
  return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

/**
 * Posts a preview as the web app does (SPEC §7's multipart form) and follows its status until
 * it is final; resolves with the LD image's file name.
 */
export async function generatePreview(
  baseUrl: string,
  cookie: string,
  username: string,
  reference: Buffer,
): Promise<string> {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(reference)], { type: 'image/png' }), 'ref.png');
  const fields: Record<string, string> = {
    id: randomUUID(),
    user: username,
    image: 'ref.png',
    cliptextencode_585: 'stone floor',
    cliptextencode_716: 'blurry',
    ipadapter_weight: '0.9',
    style: '0',
    ksampler_cfg: '3.5',
    ksampler_denoise: '1',
    use_fixed_seed: 'True',
    latent_width: '1024',
    latent_height: '1024',
    Kseed: '10',
    seamless: 'disable',
    circularVAE: 'disable',
  };
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const posted = await fetch(`${baseUrl}${API_ROUTES.generatePreview}`, {
    method: 'POST',
    headers: { cookie },
    body: form,
  });
  if (posted.status >= 300) {
    throw new Error(`preview refused: ${posted.status} ${await posted.text()}`);
  }
  const deadline = Date.now() + PREVIEW_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const res = await fetch(`${baseUrl}${API_ROUTES.previewStatus}?t=${Date.now()}`, {
      headers: { cookie },
    });
    const status = (await res.json()) as { status: string; output_image?: string };
    if (status.status === 'finished' && status.output_image) return status.output_image;
    if (status.status === 'error') throw new Error(`preview failed: ${JSON.stringify(status)}`);
    // The HTTP status route is what the web app reads after a reload; it has no push.
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the preview did not finish');
}

/** The bytes of one of the user's LD images, as the gallery loads it. */
export async function downloadLd(baseUrl: string, cookie: string, filename: string) {
  const res = await fetch(`${baseUrl}${API_ROUTES.ldImage.replace(':filename', filename)}`, {
    headers: { cookie },
  });
  if (res.status !== 200) throw new Error(`GET LD ${filename}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}
