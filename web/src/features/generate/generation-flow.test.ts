import {
  FIXED_SEED,
  errorText,
  GENERATION_DEFAULTS,
  POLL_INTERVAL_MS,
  TEXTS,
  previewRequestSchema,
} from '@tessera/contract';
import type {
  GenerationForm,
  GenerationStatusResponse,
  LdImage,
  PreviewRequestFields,
} from '@tessera/contract';
import { describe, expect, it } from 'vitest';
import { batchPercent, runGenerationBatch } from './generation-flow';
import type { GenerationFlowApi } from '../../lib/api/generation-flow';
import { HttpError } from '../../lib/api/http';
import type { FlowOptions, GenerationBatch, GenerationEvents } from './generation-flow';

const FORM: GenerationForm = {
  ...GENERATION_DEFAULTS,
  positivePrompt: 'weathered oak planks',
  negativePrompt: 'blurry',
};

const reference = new File([new Uint8Array([1, 2, 3])], 'oak.png', { type: 'image/png' });

type Script = readonly (GenerationStatusResponse | Error | null)[];

const queued: GenerationStatusResponse = { status: 'queued', percent: 0 };
const running = (percent: number): GenerationStatusResponse => ({
  status: 'in_progress',
  percent,
});
const finished = (output_image: string | undefined): GenerationStatusResponse => ({
  status: 'finished',
  percent: 100,
  ...(output_image ? { output_image } : {}),
});

function ldImage(filename: string): LdImage {
  return {
    filename,
    thumbnail: `/api/images/ld/thumbnail/${filename}`,
    metadata: { kseed: FIXED_SEED },
    tags: [],
  };
}

/**
 * A fake server: the status call answers from a script, the one before any post (`earlier`),
 * then the latest posted job's; each answer is used once, the last one stays. Posted fields go
 * through the contract's own request schema, as on the real server.
 */
function fakeServer(options: {
  earlier?: Script;
  jobs?: (index: number) => Script;
  listed?: (outputs: string[]) => LdImage[];
  failAssign?: boolean;
  failPost?: boolean;
  /** The server refuses the post with this text (its HTTP error), as over the storage quota. */
  refusePost?: string;
}) {
  const log: string[] = [];
  const posted: PreviewRequestFields[] = [];
  const parsedFields: unknown[] = [];
  const outputs: string[] = [];
  let script: Script = options.earlier ?? [null];
  let step = 0;
  const jobs = options.jobs ?? ((index) => [queued, running(50), finished(`out-${index}.png`)]);

  const api: GenerationFlowApi = {
    previewStatus: async () => {
      const answer = script[Math.min(step++, script.length - 1)] ?? null;
      log.push(`status:${answer instanceof Error ? 'failed' : (answer?.status ?? 'none')}`);
      if (answer instanceof Error) throw answer;
      return answer;
    },
    postPreview: async (fields, file) => {
      log.push(`post:${file.name}`);
      if (options.failPost) throw new Error('413');
      if (options.refusePost) throw new HttpError(options.refusePost, 413);
      const parsed = previewRequestSchema.safeParse(fields);
      if (!parsed.success) throw new Error(`invalid fields: ${parsed.error.message}`);
      parsedFields.push(parsed.data);
      posted.push(fields);
      const index = posted.length - 1;
      script = jobs(index);
      step = 0;
      outputs.push(`out-${index}.png`);
    },
    refreshLowDefinition: async () => {
      log.push('refresh');
    },
    listLowDefinition: async () => {
      log.push('list');
      return (options.listed ?? ((names) => names.map(ldImage)))(outputs);
    },
    assignTag: async (tagId, filename) => {
      log.push(`assign:${tagId}:${filename}`);
      if (options.failAssign) throw new Error('assign-tag failed');
    },
  };
  const waits: number[] = [];
  const wait = async (ms: number) => {
    waits.push(ms);
    log.push('wait');
  };
  let ids = 0;
  const newId = () => `job-${++ids}`;
  /** Runs a batch here: user ana, the oak reference, FORM and no tags unless `batch` says so. */
  const run = (
    batch: Partial<GenerationBatch> = {},
    events: GenerationEvents = {},
    options: FlowOptions = {},
  ) =>
    runGenerationBatch(api, { user: 'ana', reference, form: FORM, tagIds: [], ...batch }, events, {
      wait,
      newId,
      ...options,
    });
  return { api, log, posted, parsedFields, waits, run };
}

describe('the Generate flow (SPEC §4)', () => {
  it('[G13][G14][G15][P1][P4] runs a batch of 2 item after item: post, follow, refresh, list, show, tag', async () => {
    const server = fakeServer({});
    const shown: [number, LdImage][] = [];
    const progress: number[] = [];
    const result = await server.run(
      { form: { ...FORM, batchSize: 2 }, tagIds: ['t1', 't2'] },
      {
        onImage: (index, image) => shown.push([index, image]),
        onProgress: (p) => progress.push(p),
      },
    );

    expect(result.ok).toBe(true);
    expect(server.log).toEqual([
      // Item 1: no earlier job, so it is posted at once.
      'status:none',
      'post:oak.png',
      'status:queued',
      'wait',
      'status:in_progress',
      'wait',
      'status:finished',
      'refresh',
      'list',
      'assign:t1:out-0.png',
      'assign:t2:out-0.png',
      // Item 2: the earlier job (item 1) is finished, so it is posted at once too.
      'status:finished',
      'post:oak.png',
      'status:queued',
      'wait',
      'status:in_progress',
      'wait',
      'status:finished',
      'refresh',
      'list',
      'assign:t1:out-1.png',
      'assign:t2:out-1.png',
    ]);
    expect(server.waits.every((ms) => ms === POLL_INTERVAL_MS)).toBe(true);
    // Each item shown as listed, then again with its tags.
    expect(shown.map(([index, image]) => [index, image.filename, image.tags])).toEqual([
      [0, 'out-0.png', []],
      [0, 'out-0.png', ['t1', 't2']],
      [1, 'out-1.png', []],
      [1, 'out-1.png', ['t1', 't2']],
    ]);
    expect(progress).toEqual([0, 25, 50, 50, 75, 100]);
  });

  it('[P1][G11] posts exactly the spec fields, a fresh id per item and seed 10 with the fixed seed', async () => {
    const server = fakeServer({});
    await server.run({
      form: { ...FORM, batchSize: 2, styleWeight: 35, tiling: true, mask: true },
    });
    expect(server.posted).toHaveLength(2);
    expect(server.posted[0]).toEqual({
      id: 'job-1',
      user: 'ana',
      image: 'oak.png',
      cliptextencode_585: 'weathered oak planks',
      cliptextencode_716: 'blurry',
      ipadapter_weight: '0.9',
      style: '0.35',
      ksampler_cfg: '3.5',
      ksampler_denoise: '1',
      use_fixed_seed: 'True',
      latent_width: '1024',
      latent_height: '1024',
      Kseed: '10',
      seamless: 'enable',
      circularVAE: 'enable',
      mask: 'enable',
    });
    expect(server.posted[1]?.id).toBe('job-2');
  });

  it('[G11] without the fixed seed each item gets its own random seed below 2^32', async () => {
    const server = fakeServer({});
    const randoms = [0.5, 0.999999999999];
    await server.run(
      { form: { ...FORM, batchSize: 2, use_fixed_seed: false } },
      {},
      { random: () => randoms.shift() ?? 0 },
    );
    expect(server.posted.map((fields) => [fields.use_fixed_seed, fields.Kseed])).toEqual([
      ['False', String(2 ** 31)],
      ['False', String(Math.floor(0.999999999999 * 2 ** 32))],
    ]);
  });

  it('[G13] waits, polling every 3 s, until an earlier preview job is no longer in progress', async () => {
    const server = fakeServer({ earlier: [running(10), running(60), finished('old.png')] });
    await server.run();
    expect(server.log.slice(0, 6)).toEqual([
      'status:in_progress',
      'wait',
      'status:in_progress',
      'wait',
      'status:finished',
      'post:oak.png',
    ]);
    expect(server.waits[0]).toBe(POLL_INTERVAL_MS);
  });

  it('[G13] a job put back in the queue for its retry is followed until it finishes', async () => {
    const server = fakeServer({
      jobs: () => [running(30), queued, running(20), finished('out-0.png')],
    });
    const result = await server.run();
    expect(result.ok).toBe(true);
  });

  it('tells the notice of a job waiting for the image storage while it lasts, and its end', async () => {
    const retrying = errorText('FILE_STORE_RETRYING');
    const waiting = (percent: number) => ({ ...running(percent), notice: retrying });
    const server = fakeServer({
      jobs: () => [waiting(0), waiting(0), running(40), waiting(40), finished('out-0.png')],
    });
    const notices: (string | undefined)[] = [];
    const result = await server.run({}, { onNotice: (notice) => notices.push(notice) });
    expect(result.ok).toBe(true);
    // Once per change: shown, gone when the job goes on, shown again, gone when it finished.
    expect(notices).toEqual([retrying, undefined, retrying, undefined]);
  });

  it('a batch that fails while its job waits ends the notice too', async () => {
    const retrying = errorText('FILE_STORE_RETRYING');
    const server = fakeServer({
      jobs: () => [{ ...running(10), notice: retrying }, new Error('503')],
    });
    const notices: (string | undefined)[] = [];
    const result = await server.run({}, { onNotice: (notice) => notices.push(notice) });
    expect(result).toMatchObject({ ok: false, detail: TEXTS.generateStatusError });
    expect(notices).toEqual([retrying, undefined]);
  });

  it('[G16] a failed job stops the batch: the next item is never posted', async () => {
    const server = fakeServer({ jobs: () => [running(40), { status: 'error', percent: 40 }] });
    const result = await server.run({ form: { ...FORM, batchSize: 3 }, tagIds: ['t1'] });
    expect(result).toMatchObject({ ok: false, index: 0, detail: undefined });
    expect(server.posted).toHaveLength(1);
    expect(server.log).not.toContain('refresh');
  });

  it('[G16] a failure on the second item keeps the first and stops there', async () => {
    const server = fakeServer({
      jobs: (index) =>
        index === 0 ? [finished('out-0.png')] : [running(5), { status: 'error', percent: 5 }],
    });
    const shown: string[] = [];
    const result = await server.run(
      { form: { ...FORM, batchSize: 3 } },
      { onImage: (_index, image) => shown.push(image.filename) },
    );
    expect(result).toMatchObject({ ok: false, index: 1 });
    expect(shown).toEqual(['out-0.png']);
    expect(server.posted).toHaveLength(2);
  });

  it("[G17] a status call that fails gives 'Error obtaining generate image status.'", async () => {
    const server = fakeServer({ jobs: () => [running(5), new Error('503')] });
    const result = await server.run();
    expect(result).toMatchObject({ ok: false, detail: TEXTS.generateStatusError });
  });

  it("[G17] a finished job without output_image gives 'Error fetching the latest image. Please try again.'", async () => {
    const server = fakeServer({ jobs: () => [finished(undefined)] });
    const result = await server.run();
    expect(result).toMatchObject({ ok: false, detail: TEXTS.latestImageError });
  });

  it("[G17] an output missing from the LD list gives 'Error obtaining metadata.'", async () => {
    const server = fakeServer({ listed: () => [ldImage('someone-else.png')] });
    const result = await server.run();
    expect(result).toMatchObject({ ok: false, detail: TEXTS.metadataError });
  });

  it('[G16] a refused post or a failed tag assignment stops the batch too', async () => {
    const refused = fakeServer({ failPost: true });
    expect(await refused.run({ form: { ...FORM, batchSize: 2 } })).toMatchObject({
      ok: false,
      index: 0,
      detail: undefined,
    });

    // A refusal written for the person (the storage quota, a full queue) is the error's detail.
    const overQuota = errorText('STORAGE_QUOTA_EXCEEDED', '1 MB');
    expect(await fakeServer({ refusePost: overQuota }).run()).toMatchObject({
      ok: false,
      index: 0,
      detail: overQuota,
    });

    const untagged = fakeServer({ failAssign: true });
    const shown: string[] = [];
    expect(
      await untagged.run(
        { form: { ...FORM, batchSize: 2 }, tagIds: ['t1'] },
        { onImage: (_index, image) => shown.push(image.filename) },
      ),
    ).toMatchObject({ ok: false, index: 0 });
    // Shown before the tags were assigned (step 4's order), and nothing more was posted.
    expect(shown).toEqual(['out-0.png']);
    expect(untagged.posted).toHaveLength(1);
  });
});

describe('batchPercent', () => {
  it('[G4] counts each item as an equal share of the whole batch', () => {
    expect(batchPercent(0, 0, 1)).toBe(0);
    expect(batchPercent(0, 50, 1)).toBe(50);
    expect(batchPercent(1, 0, 2)).toBe(50);
    expect(batchPercent(1, 50, 2)).toBe(75);
    expect(batchPercent(2, 99, 3)).toBe(99);
    expect(batchPercent(3, 0, 3)).toBe(100);
  });
});
