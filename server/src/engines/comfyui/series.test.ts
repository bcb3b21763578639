// A series of faces on the ComfyUI engine (issue 25, part 3), run on the stand-in over real
// HTTP and websockets: face 1 from the preview template, the others by inpainting inside face 1's
// band (series.json), which the stand-in runs with real pixels.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ServerStopping } from '../../runtime/shutdown.js';
import type { ComfyStandIn } from '../../testing/comfyui-stand-in/index.js';
import { comfyEngines, never } from '../../testing/comfyui-engines.js';
import type { RawImage } from '../../imaging/raw-image.js';
import { autocorrelation, layFloor } from '../builtin/quilting/floor.js';
import { joinRatio } from '../builtin/quilting/seam-metrics.js';
import type { GenerateParams, RemotePrompt } from '../engine.js';
import { templateNeeds } from './capabilities.js';
import { fillSeries, loadWorkflowTemplates, seriesMask, SERIES_NODES } from './workflows.js';

const WIDTH = 1448;
const HEIGHT = 724;
const FACES = 4;

const comfyui = comfyEngines('tessera-comfy-series-', () => noisePng(WIDTH, HEIGHT));
const { standIn, engine } = comfyui;

function seriesParams(overrides: Partial<GenerateParams> = {}): GenerateParams {
  const stem = path.join(comfyui.dir, `series-${Math.random().toString(36).slice(2)}`);
  const seriesPaths = Array.from({ length: FACES }, (_, k) => `${stem}-f${k + 1}.png`);
  return comfyui.previewParams({
    outputPath: seriesPaths[0] ?? '',
    seriesPaths,
    width: WIDTH,
    height: HEIGHT,
    seamless: true,
    ...overrides,
  });
}

/** A stochastic texture (blurred seeded noise): its joins are as smooth as its inside. */
async function noisePng(width: number, height: number): Promise<Buffer> {
  let state = 12345;
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < data.length; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    data[i] = state >> 23;
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .blur(1.5)
    .png()
    .toBuffer();
}

async function pixels(file: string): Promise<Buffer> {
  return sharp(file).removeAlpha().raw().toBuffer();
}

/** The largest and the mean difference of two faces' bytes inside a rectangle. */
function difference(
  a: Buffer,
  b: Buffer,
  box: { left: number; top: number; width: number; height: number },
) {
  let max = 0;
  let sum = 0;
  for (let y = box.top; y < box.top + box.height; y++) {
    for (let x = box.left; x < box.left + box.width; x++) {
      for (let c = 0; c < 3; c++) {
        const at = (y * WIDTH + x) * 3 + c;
        const d = Math.abs((a[at] ?? 0) - (b[at] ?? 0));
        max = Math.max(max, d);
        sum += d;
      }
    }
  }
  return { max, mean: sum / (box.width * box.height * 3) };
}

const { band, feather } = seriesMask(WIDTH, HEIGHT);
/** The four edge strips every face shares with face 1. */
const STRIPS = [
  { left: 0, top: 0, width: WIDTH, height: band },
  { left: 0, top: HEIGHT - band, width: WIDTH, height: band },
  { left: 0, top: 0, width: band, height: HEIGHT },
  { left: WIDTH - band, top: 0, width: band, height: HEIGHT },
];
const inset = band + feather + 8;
const INTERIOR = { left: inset, top: inset, width: WIDTH - 2 * inset, height: HEIGHT - 2 * inset };

/** A face as RGBA pixels (the seam and floor measures' input), optionally reduced in size. */
async function rgbaOf(file: string, width = WIDTH, height = HEIGHT): Promise<RawImage> {
  const data = await sharp(file).resize(width, height).ensureAlpha().raw().toBuffer();
  return { data: new Uint8Array(data), width, height };
}

/** Every face keeps face 1's border band; the interiors differ from each other. */
async function expectSeries(paths: readonly string[]): Promise<void> {
  const faces = await Promise.all(paths.map(pixels));
  const [first] = faces;
  if (!first) throw new Error('no face');
  for (const face of faces.slice(1)) {
    for (const strip of STRIPS) expect(difference(first, face, strip).max).toBeLessThanOrEqual(1);
  }
  for (let i = 0; i < faces.length; i++) {
    for (let j = i + 1; j < faces.length; j++) {
      const a = faces[i] ?? first;
      const b = faces[j] ?? first;
      expect(difference(a, b, INTERIOR).mean, `faces ${i + 1} and ${j + 1}`).toBeGreaterThan(10);
    }
  }
  // Any face joins any face, both ways and in both directions, as face 1 joins itself (face 1
  // tiles): every join within 1.2x the faces' inside (issue 25's metric, the builtin engine's).
  const rgba = await Promise.all(paths.map((file) => rgbaOf(file)));
  for (const side of ['right', 'below'] as const) {
    for (const [i, a] of rgba.entries()) {
      for (const [j, b] of rgba.entries()) {
        expect(joinRatio(a, b, side), `face ${i + 1} ${side} of ${j + 1}`).toBeLessThanOrEqual(1.2);
      }
    }
  }
  // Laid at random on a 6x6 floor, the faces repeat at the face period less than face 1 tiled
  // with itself (at a quarter of the size, which keeps the floor small and the measure alike).
  const small = await Promise.all(paths.map((file) => rgbaOf(file, WIDTH / 4, HEIGHT / 4)));
  const repeat = (floor: RawImage, lowest: boolean) => {
    const across = autocorrelation(floor, WIDTH / 4, 0);
    const down = autocorrelation(floor, 0, HEIGHT / 4);
    return lowest ? Math.min(across, down) : Math.max(across, down);
  };
  const random = repeat(layFloor(small, 6, 6, 7).floor, false);
  const tiled = repeat(layFloor(small.slice(0, 1), 6, 6, 7).floor, true);
  expect(random).toBeLessThanOrEqual(0.8 * tiled);
}

describe('ComfyUI engine: a series of faces', { timeout: 90_000 }, () => {
  it('writes every face: face 1 as a preview, the others inpainted inside its band', async () => {
    const comfy = await standIn();
    const percents: number[] = [];
    const params = seriesParams();
    const result = await engine([comfy.url]).generate(params, (p) => percents.push(p), never());

    expect(result).toEqual({ width: WIDTH, height: HEIGHT });
    for (const file of params.seriesPaths ?? []) {
      const written = await sharp(file).metadata();
      expect([written.format, written.width, written.height]).toEqual(['png', WIDTH, HEIGHT]);
    }
    await expectSeries(params.seriesPaths ?? []);

    // One prompt per face: the preview template, then the series template with seeds + 1, 2, 3.
    expect(comfy.prompts).toHaveLength(FACES);
    expect(comfy.prompts[0]?.prompt['12']?.inputs.image).toMatch(/^tessera\/.*\.png \[temp\]$/);
    expect(comfy.prompts[0]?.prompt['804']).toBeUndefined();
    const faces = comfy.prompts.slice(1).map((p) => p.prompt);
    expect(faces.map((p) => p['3']?.inputs.seed)).toEqual([1235, 1236, 1237]);
    expect(faces.map((p) => p['804']?.class_type)).toEqual(Array(3).fill('SetLatentNoiseMask'));
    // Each face uploads face 1 (the preview uploaded the reference).
    expect(comfy.uploads).toHaveLength(FACES);

    // Progress spans the faces: rising, through each quarter, to 100.
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(new Set(percents).size).toBe(percents.length);
    for (const quarter of [10, 35, 60, 85]) {
      expect(percents.some((p) => p >= quarter && p < quarter + 15)).toBe(true);
    }
    expect(percents.at(-1)).toBe(100);
  });

  it('fills every input of the series template Tessera sets', () => {
    const templates = loadWorkflowTemplates();
    const filled = fillSeries(templates.series, {
      ...seriesParams(),
      seed: 77,
      faceImage: 'tessera/x-slot-0.png [temp]',
    });
    const inputs = (id: string) => filled[id]?.inputs ?? {};
    expect(inputs(SERIES_NODES.face.id).image).toBe('tessera/x-slot-0.png [temp]');
    // 1448 x 724 encodes as 1448 x 720 (VAEEncode's centred crop: 2 rows off the top).
    expect(seriesMask(WIDTH, HEIGHT)).toEqual({
      width: 1448,
      height: 720,
      band: 90,
      feather: 45,
      offsetX: 0,
      offsetY: 2,
    });
    expect(inputs('800')).toMatchObject({ value: 0, width: 1448, height: 720 });
    expect(inputs('801')).toMatchObject({ value: 1, width: 1268, height: 540 });
    expect(inputs('802')).toMatchObject({ left: 45, top: 45, right: 45, bottom: 45 });
    expect(inputs('803')).toMatchObject({ x: 90, y: 90, operation: 'add' });
    expect(inputs('805')).toMatchObject({ x: 0, y: 2, resize_source: false });
    expect(inputs('3')).toMatchObject({ seed: 77, cfg: 7.5, denoise: 1 });
    expect(inputs('585').text).toBe('weathered red brick wall');
    expect(inputs('716').text).toBe('blurry, text');
    expect([inputs('600').weight, inputs('601').weight]).toEqual([1.2, 0.3]);
    expect([inputs('720').tiling, inputs('721').tiling]).toEqual(['enable', 'enable']);
    // Every bound input has the value filled in, not the template's.
    for (const binding of Object.values(SERIES_NODES)) {
      for (const input of binding.inputs) {
        expect(filled[binding.id]?.inputs[input], `${binding.id}.${input}`).toBeDefined();
      }
    }
    // Odd sizes: the band is kept on every side of the face, however the crop falls.
    expect(seriesMask(677, 1548)).toMatchObject({ width: 672, height: 1544, offsetX: 2 });
    expect(seriesMask(2506, 418)).toMatchObject({ band: 52, offsetX: 1, offsetY: 1 });
  });

  it('a server without the mask and inpainting nodes is incomplete and gets no series', async () => {
    const templates = loadWorkflowTemplates();
    const needs = templateNeeds({
      preview: templates.preview.workflow,
      hd: templates.hd.workflow,
      series: templates.series.workflow,
    });
    for (const type of [
      'SolidMask',
      'FeatherMask',
      'MaskComposite',
      'SetLatentNoiseMask',
      'ImageCompositeMasked',
    ]) {
      expect(needs.nodeTypes).toContain(type);
    }
    const comfy = await standIn({ withoutNodes: ['SetLatentNoiseMask', 'FeatherMask'] });
    const health = await engine([comfy.url]).start();
    expect(health.servers?.[0]?.state).toBe('incomplete');
    expect(health.servers?.[0]?.missing).toEqual([
      'node type "FeatherMask" (a custom node pack not installed?)',
      'node type "SetLatentNoiseMask" (a custom node pack not installed?)',
    ]);
  });
});

describe('ComfyUI engine: a series after a restart', { timeout: 90_000 }, () => {
  /** Runs a series until face 3's prompt is queued, then stops (as Tessera does) while it runs. */
  async function stopAtFace3(comfy: ComfyStandIn, params: GenerateParams) {
    const noted: RemotePrompt[] = [];
    const remote = { queued: async (prompt: RemotePrompt) => void noted.push(prompt) };
    const stopping = new AbortController();
    const third = new Promise<string>((resolve) =>
      comfy.events.on('prompt', () => {
        if (comfy.prompts.length === 3) resolve(comfy.prompts[2]?.prompt_id ?? '');
      }),
    );
    const finished = new Set<string>();
    comfy.events.on('done', ({ prompt_id }: { prompt_id: string }) => finished.add(prompt_id));
    const first = engine([comfy.url]).generate(
      { ...params, remote },
      () => undefined,
      stopping.signal,
    );
    const promptId = await third;
    stopping.abort(new ServerStopping());
    await expect(first).rejects.toBeInstanceOf(ServerStopping);
    await comfy.until(() => finished.has(promptId));
    expect(noted.at(-1)?.promptId).toBe(promptId);
    return { remote, previous: noted.at(-1) };
  }

  it('faces written are kept and the prompt of the face that was running is picked up', async () => {
    const comfy = await standIn();
    const params = seriesParams();
    const { remote, previous } = await stopAtFace3(comfy, params);
    const paths = params.seriesPaths ?? [];
    expect(paths.map((file) => fs.existsSync(file))).toEqual([true, true, false, false]);

    await engine([comfy.url]).generate(
      { ...params, remote: { ...remote, previous } },
      () => undefined,
      never(),
    );
    // Face 3 came from the history of its prompt; only face 4 was queued anew.
    expect(comfy.prompts).toHaveLength(FACES);
    expect(comfy.prompts[3]?.prompt['3']?.inputs.seed).toBe(1237);
    await expectSeries(paths);
  });

  it("with the faces gone, another face's prompt is not taken for face 1: every face is made again", async () => {
    const comfy = await standIn();
    const params = seriesParams();
    const { remote, previous } = await stopAtFace3(comfy, params);
    const paths = params.seriesPaths ?? [];
    const face1 = await pixels(paths[0] ?? '');
    // A scratch folder cleared at the restart: nothing of the first run is left.
    for (const file of paths) fs.rmSync(file, { force: true });

    await engine([comfy.url]).generate(
      { ...params, remote: { ...remote, previous } },
      () => undefined,
      never(),
    );
    expect(comfy.prompts).toHaveLength(3 + FACES);
    // Face 3's old prompt was taken back (its history deleted), and face 1 is a preview again.
    const history = (await (
      await fetch(`${comfy.url}/history/${previous?.promptId}`)
    ).json()) as object;
    expect(history).toEqual({});
    expect((await pixels(paths[0] ?? '')).equals(face1)).toBe(true);
    await expectSeries(paths);
  });
});
