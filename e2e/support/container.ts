import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { createInterface } from 'node:readline';
import { API_ROUTES } from '@tessera/contract';
import { DOCKER, docker } from './docker.js';

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

/**
 * Lines of a docker command that streams (events, logs --follow) until `until` gives a result
 * (or throws), or the time is up; the stream ends with the wait.
 */
function followLines<T>(
  args: string[],
  until: (line: string) => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
  what: string,
): { done: Promise<T>; stop: () => void } {
  const child = spawn(DOCKER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const done = new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: not in time`)), timeoutMs);
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      child.kill();
      settle();
    };
    // One line at a time, in order, though `until` may be async.
    let chain = Promise.resolve();
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      chain = chain.then(async () => {
        try {
          const result = await until(line);
          if (result !== undefined) finish(() => resolve(result));
        } catch (err) {
          finish(() => reject(err as Error));
        }
      });
    });
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('exit', (code) =>
      finish(() => reject(new Error(`${what}: docker ${args[0]} ended (${code}) ${stderr}`))),
    );
  });
  // Awaited later, maybe after it failed: not an unhandled rejection meanwhile.
  done.catch(() => undefined);
  return { done, stop: () => child.kill() };
}

async function state(name: string): Promise<string> {
  return (
    await docker(['inspect', '--format', '{{.State.Status}} {{.State.Health.Status}}', name])
  ).trim();
}

/**
 * Waits until the image's HEALTHCHECK reports the container healthy, following the daemon's
 * events for it (health_status, die); throws if it stops or turns unhealthy. The events from a
 * second before the call on are replayed, so none is missed between the check and the stream.
 */
export async function waitHealthy(name: string): Promise<void> {
  const since = ((Date.now() - 1000) / 1000).toFixed(3);
  const events = followLines(
    ['events', '--since', since, '--filter', `container=${name}`, '--format', '{{.Action}}'],
    async (action) => {
      if (action === 'health_status: healthy') return true;
      if (action === 'health_status: unhealthy') throw new Error(`${name} is unhealthy`);
      // A restart's die is followed by its start: only a container that stays down fails.
      if (action === 'die' && !(await state(name)).startsWith('running')) {
        throw new Error(`${name} stopped`);
      }
      return undefined;
    },
    HEALTHY_TIMEOUT_MS,
    `${name} healthy`,
  );
  try {
    const now = await state(name);
    if (now === 'running healthy') return;
    if (!now.startsWith('running')) throw new Error(`${name} is ${now}`);
    await events.done;
  } catch (err) {
    throw new Error(`${name} is not healthy (${String(err)}):\n${await containerLogs(name)}`);
  } finally {
    events.stop();
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
 * Posts a preview as the web app does (SPEC §7's multipart form), waits for the job's end in
 * the log of the container that runs it (`docker logs --follow`: the preview status has no
 * push, the web app polls it), then reads its status as the web app does; resolves with the
 * LD image's file name.
 */
export async function generatePreview(
  baseUrl: string,
  cookie: string,
  username: string,
  reference: Buffer,
  runner: string,
): Promise<string> {
  const id = randomUUID();
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(reference)], { type: 'image/png' }), 'ref.png');
  const fields: Record<string, string> = {
    id,
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
  let output: string;
  // Followed from before the post, the whole log (`docker logs` has no sub-second --since): the
  // runner's only preview is this one. Its log names the job by its number, not by this id.
  const ended = followLines(
    ['logs', '--follow', runner],
    (line) => {
      if (!line.startsWith('{')) return undefined;
      const entry = JSON.parse(line) as { kind?: string; msg?: string; output?: string };
      if (entry.kind !== 'preview') return undefined;
      if (entry.msg === 'job finished') return entry.output ?? '';
      if (entry.msg === 'job failed') throw new Error(`preview failed: ${line}`);
      return undefined;
    },
    PREVIEW_TIMEOUT_MS,
    `preview ${id} in ${runner}`,
  );
  try {
    const posted = await fetch(`${baseUrl}${API_ROUTES.generatePreview}`, {
      method: 'POST',
      headers: { cookie },
      body: form,
    });
    if (posted.status >= 300) {
      throw new Error(`preview refused: ${posted.status} ${await posted.text()}`);
    }
    output = await ended.done;
  } finally {
    ended.stop();
  }
  const res = await fetch(`${baseUrl}${API_ROUTES.previewStatus}?t=${Date.now()}`, {
    headers: { cookie },
  });
  const status = (await res.json()) as { status: string; output_image?: string };
  if (status.status !== 'finished' || status.output_image !== output) {
    throw new Error(`preview ${id} made ${output}, but its status is ${JSON.stringify(status)}`);
  }
  return output;
}

/** The bytes of one of the user's LD images, as the gallery loads it. */
export async function downloadLd(baseUrl: string, cookie: string, filename: string) {
  const res = await fetch(`${baseUrl}${API_ROUTES.ldImage.replace(':filename', filename)}`, {
    headers: { cookie },
  });
  if (res.status !== 200) throw new Error(`GET LD ${filename}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}
