import { API_ROUTES } from '@tessera/contract';
import sharp from 'sharp';
import { passwordOf } from './fixtures.js';

/** Signs in over real HTTP and returns the Cookie header value of the session. */
export async function signIn(baseUrl: string, username: string): Promise<string> {
  const res = await fetch(`${baseUrl}${API_ROUTES.login}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: passwordOf(username) }),
  });
  if (res.status !== 200) throw new Error(`login of ${username} failed: ${res.status}`);
  return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

/**
 * A reference image as a texture artist might upload: procedural bricks with mortar, in rows
 * `brick` pixels high (bricks twice as wide, in running bond).
 */
export async function bricksPng(width = 256, height = 256, brick = 32): Promise<Buffer> {
  const joint = brick / 8;
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const row = Math.floor(y / brick);
      const mortar = y % brick < joint || (x + (row % 2) * brick) % (2 * brick) < joint;
      const grain = ((x * 7919 + y * 104729) % 23) - 11;
      const i = (y * width + x) * 3;
      data[i] = mortar ? 200 : 150 + grain;
      data[i + 1] = mortar ? 195 : 70 + grain;
      data[i + 2] = mortar ? 185 : 50 + grain;
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

export interface PreviewForm {
  file?: { name: string; data: Buffer; type?: string };
  fields?: Record<string, string>;
}

/** The multipart fields the web app sends for one preview (SPEC §7), overridable one by one. */
export function previewFields(
  user: string,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    id: `job-${Math.random().toString(36).slice(2)}`,
    user,
    image: 'bricks.png',
    cliptextencode_585: 'weathered red brick wall',
    cliptextencode_716: 'blurry, text',
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
    ...overrides,
  };
}

export async function postPreview(
  baseUrl: string,
  cookie: string,
  form: PreviewForm,
): Promise<Response> {
  const body = new FormData();
  if (form.file) {
    body.append(
      'image',
      // A copy as a plain Uint8Array: the DOM's Blob types (e2e's) take no Buffer.
      new Blob([new Uint8Array(form.file.data)], { type: form.file.type ?? 'image/png' }),
      form.file.name,
    );
  }
  for (const [key, value] of Object.entries(form.fields ?? {})) body.append(key, value);
  return fetch(`${baseUrl}${API_ROUTES.generatePreview}`, {
    method: 'POST',
    headers: { cookie },
    body,
  });
}

export interface PreviewResult {
  status: string;
  percent: number;
  output_image?: string;
  /** Every status read, as `status:percent`, for a failure's message. */
  seen: string[];
}

/**
 * Reads the preview status (SPEC §7 gives it over HTTP only) until it is final. With
 * `nextJobEnd` (resolves when a job of the server changed or ended: the in-process test server's
 * `nextJobChange(owner)`, or another process's "job finished" log line), it reads once and then
 * again only after each such event; without it, every 100 ms, as the web app polls.
 */
export async function waitForPreview(
  baseUrl: string,
  cookie: string,
  timeoutMs = 60_000,
  nextJobEnd?: () => Promise<void>,
): Promise<PreviewResult> {
  const seen: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), timeoutMs);
  });
  try {
    for (;;) {
      // Asked for before the read, so a job that ends during the read is not missed.
      const ended = nextJobEnd?.() ?? new Promise((resolve) => setTimeout(resolve, 100));
      const status = await readPreviewStatus(baseUrl, cookie);
      if (status) {
        seen.push(`${status.status}:${status.percent}`);
        if (status.status === 'finished' || status.status === 'error') return { ...status, seen };
      }
      if ((await Promise.race([ended, timedOut])) === 'timed out') break;
    }
  } finally {
    clearTimeout(timer);
  }
  throw new Error(`preview did not finish in ${timeoutMs} ms: ${seen.join(', ')}`);
}

/**
 * Posts a preview and waits for it (waitForPreview's `nextJobEnd` and timeout); throws unless
 * the post is taken (202) and the job finishes.
 */
export async function finishedPreview(
  baseUrl: string,
  cookie: string,
  form: PreviewForm,
  nextJobEnd: () => Promise<void>,
  timeoutMs = 60_000,
): Promise<PreviewResult> {
  const posted = await postPreview(baseUrl, cookie, form);
  if (posted.status !== 202) {
    throw new Error(`preview refused: ${posted.status} ${await posted.text()}`);
  }
  const done = await waitForPreview(baseUrl, cookie, timeoutMs, nextJobEnd);
  if (done.status !== 'finished') throw new Error(`preview ended ${done.seen.join(', ')}`);
  return done;
}

async function readPreviewStatus(
  baseUrl: string,
  cookie: string,
): Promise<Omit<PreviewResult, 'seen'> | undefined> {
  const res = await fetch(`${baseUrl}${API_ROUTES.previewStatus}?t=${Date.now()}`, {
    headers: { cookie },
  });
  if (res.status !== 200) {
    await res.body?.cancel();
    return undefined;
  }
  return (await res.json()) as Omit<PreviewResult, 'seen'>;
}

/**
 * Reads as a page polls a job's state (every 20 ms) until `ended` says the job is over: every
 * value read on the way, the last the one that ended it. Throws after `timeoutMs`.
 */
export async function pollUntilEnded<T>(
  read: () => Promise<T>,
  ended: (value: T) => boolean,
  timeoutMs = 120_000,
): Promise<T[]> {
  const seen: T[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    seen.push(value);
    if (ended(value)) return seen;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
