import { NodeIO } from '@gltf-transform/core';
import { KHRTextureTransform, type Transform } from '@gltf-transform/extensions';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { validatedGlb } from '../../testing/gltf.js';
import { buildTileGlb, type GlbTexture } from './tile-glb.js';

async function texture(
  width: number,
  height: number,
  colour: { r: number; g: number; b: number },
  mimeType: GlbTexture['mimeType'],
): Promise<GlbTexture> {
  const image = sharp({ create: { width, height, channels: 3, background: colour } });
  const data = await (mimeType === 'image/png' ? image.png() : image.jpeg()).toBuffer();
  return { data, mimeType };
}

describe('the tile as a glTF binary', () => {
  // A 60x120 tile: the Rectangle format lies on its side, 1.2 m wide and 0.6 m high.
  const tile = async () =>
    buildTileGlb({
      name: 'waves_ld',
      widthM: 1.2,
      heightM: 0.6,
      baseColour: await texture(96, 48, { r: 200, g: 120, b: 60 }, 'image/jpeg'),
      normal: await texture(96, 48, { r: 128, g: 128, b: 255 }, 'image/png'),
      orm: await texture(96, 48, { r: 230, g: 150, b: 0 }, 'image/png'),
    });

  it('passes the Khronos glTF Validator with no error and no warning', async () => {
    const report = await validatedGlb(await tile());
    expect(report.issues.numErrors).toBe(0);
    expect(report.issues.numWarnings).toBe(0);
    expect(report.mimeType).toBe('model/gltf-binary');
    expect(report.info?.extensionsUsed).toEqual(['KHR_texture_transform']);
    expect(report.info?.totalTriangleCount).toBe(2);
    const images = report.info?.resources?.filter((r) => r.image);
    expect(images?.map((r) => `${r.mimeType} ${r.image?.width}x${r.image?.height}`).sort()).toEqual(
      ['image/jpeg 96x48', 'image/png 96x48', 'image/png 96x48'],
    );
  });

  it('is the ordered size in metres, its textures repeating once per tile', async () => {
    const io = new NodeIO().registerExtensions([KHRTextureTransform]);
    const doc = await io.readBinary(await tile());
    const root = doc.getRoot();
    const [node] = root.listNodes();
    expect(node?.getScale()).toEqual([1, 1, 1]);
    const primitive = node?.getMesh()?.listPrimitives()[0];
    const position = primitive?.getAttribute('POSITION');
    // Stored as 32-bit floats, as glTF stores vertices.
    const metres = (values: number[]) => values.map((v) => Math.fround(v));
    expect(position?.getMin([])).toEqual(metres([-0.6, -0.3, 0]));
    expect(position?.getMax([])).toEqual(metres([0.6, 0.3, 0]));
    // UVs in metres: 0…1.2 across, 0…0.6 down.
    const uv = primitive?.getAttribute('TEXCOORD_0');
    expect(uv?.getMin([])).toEqual([0, 0]);
    expect(uv?.getMax([])).toEqual(metres([1.2, 0.6]));
    expect(primitive?.getAttribute('TANGENT')?.getElement(0, [])).toEqual([1, 0, 0, 1]);

    const material = primitive?.getMaterial();
    expect(material?.getMetallicFactor()).toBe(0);
    expect(material?.getOcclusionTexture()).toBe(material?.getMetallicRoughnessTexture());
    const infos = [
      material?.getBaseColorTextureInfo(),
      material?.getNormalTextureInfo(),
      material?.getMetallicRoughnessTextureInfo(),
      material?.getOcclusionTextureInfo(),
    ];
    for (const info of infos) {
      const transform = info?.getExtension<Transform>(KHRTextureTransform.EXTENSION_NAME);
      expect(transform?.getScale()).toEqual([1 / 1.2, 1 / 0.6]);
    }
    expect(root.listExtensionsUsed().map((e) => e.extensionName)).toEqual([
      'KHR_texture_transform',
    ]);
    expect(root.listExtensionsRequired()).toEqual([]);
  });
});
