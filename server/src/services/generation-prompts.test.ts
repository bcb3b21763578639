import path from 'node:path';
import {
  PROMPT_TERMS_METADATA_KEY,
  readImageMetadata,
  understandPrompts,
  type PromptTerms,
} from '@tessera/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BuiltinEngine } from '../engines/builtin/builtin-engine.js';
import { LocalFileStore } from '../files/local-file-store.js';
import { probeImage } from '../imaging/probe.js';
import type { JobRecord, PreviewJobParams } from '../jobs/job.js';
import type { ImageRecord, ImageRepository, NewImage } from '../store/images.js';
import { silentLogger, tempDir } from '../testing/fixtures.js';
import { bricksPng } from '../testing/http.js';
import { PREVIEW_PARAMS } from '../testing/job-params.js';
import { jobRecord } from '../testing/records.js';
import { strictFake } from '../testing/strict-fake.js';
import { GenerationService } from './generation.js';

// The understood prompt terms (issue 27, part 1) through a preview job with the real builtin
// engine: recorded in the LD image's metadata (the row and the file), and recorded alike when
// the image is remixed (Image Details' "Use these settings" sends its prompts again).

const owner = PREVIEW_PARAMS.owner;
let data: ReturnType<typeof tempDir>;
let files: LocalFileStore;
let rows: ImageRecord[];

beforeEach(async () => {
  data = tempDir();
  files = new LocalFileStore(path.join(data.dir, 'files'));
  await files.write(owner.username, 'input', 'reference.png', await bricksPng(96, 96, 16));
  rows = [];
});
afterEach(() => data.remove());

function service(): GenerationService {
  const images = strictFake<ImageRepository>('images', {
    find: (ownerId, kind, filename) =>
      Promise.resolve(
        rows.find((r) => r.ownerId === ownerId && r.kind === kind && r.filename === filename),
      ),
    insert: (image: NewImage) => {
      const row = { ...image, id: rows.length + 1, starred: false, hdRemovedAt: null };
      rows.push(row);
      return Promise.resolve(row);
    },
  });
  return new GenerationService(
    images,
    files,
    strictFake('references'),
    strictFake('jobs'),
    strictFake('scheduler'),
    new BuiltinEngine({ upscaler: 'lanczos' }),
    silentLogger,
  );
}

let jobs = 0;
function previewJob(params: Partial<PreviewJobParams>): JobRecord<'preview'> {
  jobs++;
  return jobRecord(
    {
      kind: 'preview',
      params: { ...PREVIEW_PARAMS, width: 128, height: 128, seamless: false, ...params },
    },
    { id: jobs, publicId: `job-${jobs}`, ownerId: owner.id, status: 'in_progress', attempts: 1 },
  );
}

/** Runs the job as the runner does; the LD image's record. */
async function generate(params: Partial<PreviewJobParams>): Promise<ImageRecord> {
  const output = await service().runPreview(previewJob(params), {
    progress: () => undefined,
    signal: new AbortController().signal,
    reserveOutput: () => Promise.resolve(),
    remote: { queued: () => Promise.resolve() },
  });
  const row = rows.find((r) => r.filename === output);
  if (!row) throw new Error(`no record of ${output}`);
  return row;
}

describe('the prompt terms in the LD metadata', { timeout: 60_000 }, () => {
  it('are recorded by a preview with the builtin engine, and again alike by its Remix', async () => {
    const positivePrompt = 'Ladrillo terracota envejecido, piezas grandes';
    const negativePrompt = 'blurry, polished, azul';
    const first = await generate({ positivePrompt, negativePrompt });
    const expected: PromptTerms = understandPrompts(positivePrompt, negativePrompt);
    expect(first.metadata[PROMPT_TERMS_METADATA_KEY]).toEqual(expected);
    expect(expected.positive.map((t) => t.id)).toEqual(['terracotta', 'weathered', 'large']);
    expect(expected.negative.map((t) => t.id)).toEqual(['polished', 'blue']);
    // The file carries them too (what a gallery refresh reads back).
    const file = await files.readBuffer(owner.username, 'ld', first.filename);
    expect((await probeImage(file))?.embeddedMetadata).toMatchObject({
      [PROMPT_TERMS_METADATA_KEY]: expected,
    });

    // Remix: the form takes the image's settings from its metadata and sends them again.
    const read = readImageMetadata(first.metadata);
    const remixed = await generate({
      positivePrompt: read.positivePrompt ?? '',
      negativePrompt: read.negativePrompt ?? '',
      similarity: read.similarity ?? 0,
      imaginationWeight: read.imaginationWeight ?? 0,
      promptAdherence: read.promptAdherence ?? 0,
      seed: Number(read.seed ?? 0),
    });
    expect(remixed.filename).not.toBe(first.filename);
    expect(remixed.metadata[PROMPT_TERMS_METADATA_KEY]).toEqual(expected);
  });
});
