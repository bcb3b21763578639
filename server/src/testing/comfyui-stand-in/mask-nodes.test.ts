// The stand-in's mask nodes against what a real ComfyUI v0.3.68 computed for the same graph
// (docs/comfyui.md, "Issue 25: the series template"): the series template's mask for Rectangle.
import { once } from 'node:events';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComfyWorkflow, HistoryEntry } from '../../engines/comfyui/api-types.js';
import { startComfyStandIn, type ComfyStandIn } from './index.js';

let comfy: ComfyStandIn | undefined;
afterEach(async () => {
  await comfy?.close();
  comfy = undefined;
});

/** Queues `prompt`, waits for it to end; the first image node `output` saved, as RGB bytes. */
async function run(standIn: ComfyStandIn, prompt: ComfyWorkflow, output: string) {
  const done = once(standIn.events, 'done');
  const res = await fetch(`${standIn.url}/prompt`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt, client_id: 'mask-check' }),
  });
  const { prompt_id: id } = (await res.json()) as { prompt_id: string };
  await done;
  const history = (await (await fetch(`${standIn.url}/history/${id}`)).json()) as Record<
    string,
    HistoryEntry
  >;
  const image = history[id]?.outputs[output]?.images?.[0];
  if (!image) throw new Error('no image');
  const file = path.join(standIn.folders.output, image.subfolder, image.filename);
  return sharp(file).raw().toBuffer({ resolveWithObject: true });
}

/** Nodes 800–803 as Tessera fills them for 1448 x 724 (workflows.ts seriesMask). */
const MASK: ComfyWorkflow = {
  '800': { class_type: 'SolidMask', inputs: { value: 0, width: 1448, height: 720 } },
  '801': { class_type: 'SolidMask', inputs: { value: 1, width: 1268, height: 540 } },
  '802': {
    class_type: 'FeatherMask',
    inputs: { mask: ['801', 0], left: 45, top: 45, right: 45, bottom: 45 },
  },
  '803': {
    class_type: 'MaskComposite',
    inputs: { destination: ['800', 0], source: ['802', 0], x: 90, y: 90, operation: 'add' },
  },
};

describe('stand-in: mask nodes', () => {
  it("computes the series mask as ComfyUI 0.3.68 does, FeatherMask's quirks included", async () => {
    comfy = await startComfyStandIn();
    const { data, info } = await run(
      comfy,
      {
        ...MASK,
        '90': { class_type: 'MaskToImage', inputs: { mask: ['803', 0] } },
        '91': { class_type: 'SaveImage', inputs: { images: ['90', 0], filename_prefix: 'mask' } },
      },
      '91',
    );
    expect([info.width, info.height]).toEqual([1448, 720]);
    const at = (x: number, y: number) => data[(y * info.width + x) * info.channels] ?? -1;
    // Row 360 as the real server saved it: the band 0, the feather's first column 1/45² (0),
    // then 2/45 (11) ... 1 from the 45th column; the right side's last column 2/45 (the -0 index).
    const xs = [0, 1, 89, 90, 91, 100, 134, 135, 136, 700, 1312, 1313, 1357, 1358, 1446, 1447];
    expect(xs.map((x) => at(x, 360))).toEqual([
      0, 0, 0, 0, 11, 62, 255, 255, 255, 255, 255, 255, 11, 0, 0, 0,
    ]);
    expect([at(700, 0), at(700, 89), at(700, 90), at(700, 91), at(700, 719)]).toEqual([
      0, 0, 0, 11, 0,
    ]);
  });
});
