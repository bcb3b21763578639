import { GENERATION_DEFAULTS, previewRequestSchema, seriesMetadata } from '@tessera/contract';
import type { GenerationForm, LdImage, PreviewRequestFields } from '@tessera/contract';
import { describe, expect, it } from 'vitest';
import type { GenerationFlowApi } from '../../lib/api/generation-flow';
import { runGenerationBatch } from './generation-flow';
import type { GenerationEvents } from './generation-flow';

// The Generate flow with Faces > 1 (issue 25): each batch item is a series whose face 1 the
// job's status names; the other faces are found in the LD list by their series_id.

const FORM: GenerationForm = {
  ...GENERATION_DEFAULTS,
  positivePrompt: 'terrazzo, white chips',
  negativePrompt: 'blurry',
  tiling: true,
};

const reference = new File([new Uint8Array([1, 2, 3])], 'terrazzo.png', { type: 'image/png' });

function image(filename: string, metadata: Record<string, unknown> = {}): LdImage {
  return { filename, thumbnail: `/api/images/ld/thumbnail/${filename}`, metadata, tags: [] };
}

/**
 * A server whose job `index` makes the faces `t<index>-f<k>.png` of series `t<index>` (as many as
 * `made(index, asked)` says, `asked` being the posted faces) and lists them, newest first, among
 * an older single image and a face of another series; `single` makes jobs without series keys.
 */
function seriesServer(options: {
  made?: (index: number, asked: number) => number;
  single?: boolean;
}) {
  const posted: PreviewRequestFields[] = [];
  const assigned: string[] = [];
  let listed: LdImage[] = [
    image('older.png'),
    image('other-f2.png', seriesMetadata({ seriesId: 'other', face: 2, faces: 2 })),
  ];
  let output = '';
  const api: GenerationFlowApi = {
    previewStatus: async () =>
      posted.length === 0 ? null : { status: 'finished', percent: 100, output_image: output },
    postPreview: async (fields) => {
      const parsed = previewRequestSchema.safeParse(fields);
      if (!parsed.success) throw new Error(parsed.error.message);
      const index = posted.length;
      posted.push(fields);
      const asked = parsed.data.faces;
      const count = options.made?.(index, asked) ?? asked;
      const seriesId = `t${index}`;
      const faces = Array.from({ length: count }, (_, k) =>
        image(
          `${seriesId}-f${k + 1}.png`,
          options.single ? {} : seriesMetadata({ seriesId, face: k + 1, faces: asked }),
        ),
      );
      output = `${seriesId}-f1.png`;
      // Face 1 last: the list's order is the server's, not the faces'.
      listed = [...faces.slice(1).reverse(), ...faces.slice(0, 1), ...listed];
    },
    refreshLowDefinition: async () => undefined,
    listLowDefinition: async () => listed,
    assignTag: async (tagId, filename) => {
      assigned.push(`${tagId}:${filename}`);
    },
  };
  const run = (form: Partial<GenerationForm>, tagIds: string[], events: GenerationEvents = {}) =>
    runGenerationBatch(
      api,
      { user: 'ana', reference, form: { ...FORM, ...form }, tagIds },
      events,
      { wait: async () => undefined, newId: () => `job-${posted.length + 1}` },
    );
  return { posted, assigned, run };
}

describe('the Generate flow with Faces (issue 25)', () => {
  it('a batch of 2 with Faces 3 makes two series: each face shown, then tagged, face 1 first', async () => {
    const server = seriesServer({});
    const shown: string[] = [];
    const result = await server.run({ batchSize: 2, faces: 3 }, ['wood'], {
      onImage: (index, face, slot) => shown.push(`${index}.${slot}:${face.filename}:${face.tags}`),
    });

    expect(server.posted.map((fields) => fields.faces)).toEqual(['3', '3']);
    expect(result.ok && result.images.map((face) => face.filename)).toEqual([
      't0-f1.png',
      't0-f2.png',
      't0-f3.png',
      't1-f1.png',
      't1-f2.png',
      't1-f3.png',
    ]);
    expect(result.ok && result.images.every((face) => face.tags.includes('wood'))).toBe(true);
    expect(server.assigned).toEqual([
      'wood:t0-f1.png',
      'wood:t0-f2.png',
      'wood:t0-f3.png',
      'wood:t1-f1.png',
      'wood:t1-f2.png',
      'wood:t1-f3.png',
    ]);
    // Every face of an item shown as listed, then each again with its tag.
    expect(shown.slice(0, 6)).toEqual([
      '0.0:t0-f1.png:',
      '0.1:t0-f2.png:',
      '0.2:t0-f3.png:',
      '0.0:t0-f1.png:wood',
      '0.1:t0-f2.png:wood',
      '0.2:t0-f3.png:wood',
    ]);
    // Neither the older single image nor the other series' face was taken for a face.
    expect(shown.some((line) => /older|other/.test(line))).toBe(false);
  });

  it('Faces 1 posts no faces field and takes the output alone, as the spec has it', async () => {
    const server = seriesServer({});
    const result = await server.run({ faces: 1 }, []);
    expect(server.posted[0]).not.toHaveProperty('faces');
    expect(result.ok && result.images.map((face) => face.filename)).toEqual(['t0-f1.png']);
  });

  it('an output without series keys is one image, whatever Faces asked', async () => {
    const server = seriesServer({ single: true });
    const result = await server.run({ faces: 4 }, ['t']);
    expect(result.ok && result.images.map((face) => face.filename)).toEqual(['t0-f1.png']);
    expect(server.assigned).toEqual(['t:t0-f1.png']);
  });

  it('takes the faces the list holds when a series came short', async () => {
    const server = seriesServer({ made: () => 2 });
    const slots: number[] = [];
    const result = await server.run({ faces: 4 }, [], {
      onImage: (_index, _face, slot) => slots.push(slot),
    });
    expect(result.ok && result.images.map((face) => face.filename)).toEqual([
      't0-f1.png',
      't0-f2.png',
    ]);
    expect(slots).toEqual([0, 1]);
  });
});
