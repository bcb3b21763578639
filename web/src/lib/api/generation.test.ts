import { previewRequestFields, GENERATION_DEFAULTS } from '@tessera/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  fetchInputImage,
  fetchInputs,
  fetchPreviewStatus,
  postPreviewJob,
  previewFormData,
} from './generation';
import { HttpError } from './http';

const fields = previewRequestFields({
  id: 'job-1',
  user: 'ana',
  imageName: 'oak.png',
  seed: 10,
  form: { ...GENERATION_DEFAULTS, positivePrompt: 'oak', negativePrompt: 'blur' },
});

function stubFetch(answer: (url: string, init?: RequestInit) => Response) {
  const calls: { url: string; init?: RequestInit }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, init });
      return answer(url, init);
    }),
  );
  return calls;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the preview request (SPEC §7)', () => {
  it('[P1] is multipart: the file part image, then image (file name) and every text field', () => {
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'oak.png', { type: 'image/png' });
    const body = previewFormData(fields, file);
    const [filePart, namePart] = body.getAll('image');
    expect(filePart).toBeInstanceOf(File);
    expect((filePart as File).name).toBe('oak.png');
    expect(namePart).toBe('oak.png');
    expect([...new Set(body.keys())]).toEqual([
      'image',
      'id',
      'user',
      'cliptextencode_585',
      'cliptextencode_716',
      'ipadapter_weight',
      'style',
      'ksampler_cfg',
      'ksampler_denoise',
      'use_fixed_seed',
      'latent_width',
      'latent_height',
      'Kseed',
      'seamless',
      'circularVAE',
      'mask',
    ]);
    expect(body.get('use_fixed_seed')).toBe('True');
    expect(body.get('Kseed')).toBe('10');
    expect(body.get('seamless')).toBe('disable');
    expect(body.get('circularVAE')).toBe('disable');
  });

  it('[P1] posts to /api/command/generate-image/preview and rejects a refusal', async () => {
    const calls = stubFetch(() => json({ error: 'No image was uploaded' }, 400));
    const file = new File(['x'], 'oak.png');
    await expect(postPreviewJob(fields, file)).rejects.toThrow(HttpError);
    expect(calls[0]?.url).toBe('/api/command/generate-image/preview');
    expect(calls[0]?.init?.method).toBe('POST');
    expect(calls[0]?.init?.body).toBeInstanceOf(FormData);

    stubFetch(() => json({ id: 'job-1', status: 'queued' }, 202));
    await expect(postPreviewJob(fields, file)).resolves.toBeUndefined();
  });

  it('[P2][P4] reads the status with a cache-busting t; no job yet is null', async () => {
    const calls = stubFetch((url) =>
      url.includes('t=1') ? json({ status: 'in_progress', percent: 42 }) : json({}, 404),
    );
    expect(await fetchPreviewStatus(() => 1)).toEqual({ status: 'in_progress', percent: 42 });
    expect(calls[0]?.url).toBe('/api/query/status-generate-image/preview?t=1');
    expect(await fetchPreviewStatus(() => 2)).toBeNull();
  });

  it('[P2] an answer of another shape or a server error rejects', async () => {
    stubFetch(() => json({ status: 'done' }));
    await expect(fetchPreviewStatus()).rejects.toThrow(HttpError);
    stubFetch(() => json({ error: 'boom' }, 500));
    await expect(fetchPreviewStatus()).rejects.toThrow('boom');
  });
});

describe('references', () => {
  it('fetches an uploaded reference back as a File named after it', async () => {
    const calls = stubFetch(
      () => new Response(new Uint8Array([1, 2]), { headers: { 'content-type': 'image/png' } }),
    );
    const file = await fetchInputImage('oak ref.png');
    expect(calls[0]?.url).toBe('/api/images/input/oak%20ref.png');
    expect(file.name).toBe('oak ref.png');
    expect(file.type).toBe('image/png');
    expect(file.size).toBe(2);
  });

  it('lists the references with the contract schema', async () => {
    const inputs = [{ filename: 'a.png', created_at: '2025-01-01T00:00:00Z', images: ['x.png'] }];
    stubFetch(() => json({ inputs }));
    expect(await fetchInputs()).toEqual(inputs);
  });
});
