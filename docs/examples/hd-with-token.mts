// Makes a preview of a reference image and orders its HD image with an API token, then waits
// for the HD image and prints its file name (docs/api.md). Node 20 or later, nothing to install:
//
//   TESSERA_URL=http://localhost:8080 TESSERA_USER=alice TESSERA_TOKEN=tsr_… \
//     npx tsx hd-with-token.mts reference.png
//
// The token needs the scopes read (statuses) and generate (the preview and the HD order).
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';

const base = process.env.TESSERA_URL ?? 'http://localhost:8080';
const token = process.env.TESSERA_TOKEN;
const user = process.env.TESSERA_USER; // the token's owner: SPEC §7's form names the user
const reference = process.argv[2];
const size = process.env.TESSERA_HD_SIZE ?? '30x30'; // an HD size of the Square format
if (!token || !user || !reference)
  throw new Error('Set TESSERA_TOKEN and TESSERA_USER, and name a reference image');
const auth = { authorization: `Bearer ${token}` };
const POLL_MS = 3000; // SPEC §4 polls every 3 s

/** The JSON of an answer with the expected status; a refusal throws the server's text. */
async function expect<T>(answer: Promise<Response>, status: number): Promise<T> {
  const res = await answer;
  const body = (await res.json()) as T & { error?: string };
  if (res.status !== status) throw new Error(`${res.status}: ${body.error ?? 'unexpected answer'}`);
  return body;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// 1. The preview: SPEC §7's multipart form (the file and its name are both the field `image`).
const name = basename(reference);
const form = new FormData();
form.append('image', new Blob([await readFile(reference)]), name);
const fields = {
  id: crypto.randomUUID(),
  user,
  image: name,
  cliptextencode_585: 'weathered stone tiles',
  cliptextencode_716: 'blurry, text',
  ipadapter_weight: '0.9',
  style: '0',
  ksampler_cfg: '3.5',
  ksampler_denoise: '1',
  use_fixed_seed: 'True',
  latent_width: '1024',
  latent_height: '1024',
  Kseed: '10',
  seamless: 'enable',
  circularVAE: 'disable',
};
for (const [field, value] of Object.entries(fields)) form.append(field, value);
const preview = fetch(`${base}/api/command/generate-image/preview`, {
  method: 'POST',
  headers: auth,
  body: form,
});
await expect(preview, 202);

let ldImage: string | undefined;
while (!ldImage) {
  const status = await expect<{ status: string; output_image?: string }>(
    fetch(`${base}/api/query/status-generate-image/preview?t=${Date.now()}`, { headers: auth }),
    200,
  );
  if (status.status === 'error') throw new Error('the preview failed');
  if (status.status === 'finished') ldImage = status.output_image;
  else await sleep(POLL_MS);
}
console.error(`preview: ${ldImage}`);

// 2. The HD order, by size label, and its status by the id we gave it.
const order = { id: crypto.randomUUID(), image: ldImage, size };
await expect(
  fetch(`${base}/api/command/generate-image`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(order),
  }),
  202,
);
for (;;) {
  const job = await expect<{
    status: string;
    percent: number;
    output_image?: string;
    error?: string;
  }>(fetch(`${base}/api/query/hd-jobs/${encodeURIComponent(order.id)}`, { headers: auth }), 200);
  if (job.status === 'finished') {
    console.log(job.output_image);
    break;
  }
  // A failed attempt is retried by the server (queued again); 'error' is the end.
  if (job.status === 'error') throw new Error(`the HD image failed: ${job.error ?? ''}`);
  console.error(`HD: ${job.status} ${job.percent}%`);
  await sleep(POLL_MS);
}
