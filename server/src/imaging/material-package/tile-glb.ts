// The glTF binary of a material package (issue 26, part 3): one tile of the ordered physical
// size as a quad, in metres (glTF's unit), wearing the material. Written with glTF Transform.
import { Document, NodeIO, type GLTF, type Material } from '@gltf-transform/core';
import { KHRTextureTransform } from '@gltf-transform/extensions';

export interface GlbTexture {
  data: Uint8Array;
  mimeType: 'image/png' | 'image/jpeg';
}

export interface TileGlbInput {
  /** Names the scene, node, mesh and material. */
  name: string;
  /** The tile's size in metres: width along +X, height along +Y. */
  widthM: number;
  heightM: number;
  baseColour: GlbTexture;
  /** Tangent-space normals, OpenGL convention (glTF's: green up). */
  normal: GlbTexture;
  /** R = occlusion, G = roughness, B = metalness: glTF reads both its textures from it. */
  orm: GlbTexture;
}

/**
 * The tile stands in the XY plane facing +Z (where viewers put their camera), centred on the
 * origin. Its UVs are in metres (0…width, 0…height, v downward as glTF's image space), and
 * KHR_texture_transform scales them by 1/width, 1/height on every texture: the picture fits the
 * tile once, and on a larger surface with metre UVs it repeats once per tile of the ordered size.
 */
export async function buildTileGlb(input: TileGlbInput): Promise<Uint8Array> {
  const { name, widthM: w, heightM: h } = input;
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'Tessera';
  const buffer = doc.createBuffer();
  const accessor = (type: 'VEC2' | 'VEC3' | 'VEC4' | 'SCALAR', array: Float32Array | Uint16Array) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);

  // Bottom-left, bottom-right, top-right, top-left: two counter-clockwise triangles seen from +Z.
  const x0 = -w / 2;
  const x1 = w / 2;
  const y0 = -h / 2;
  const y1 = h / 2;
  const positions = new Float32Array([x0, y0, 0, x1, y0, 0, x1, y1, 0, x0, y1, 0]);
  const normals = new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
  // U grows along +X; with V growing downward, the bitangent N × T = +Y is handedness +1.
  const tangents = new Float32Array([1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1]);
  const uvs = new Float32Array([0, h, w, h, w, 0, 0, 0]);
  const primitive = doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', positions))
    .setAttribute('NORMAL', accessor('VEC3', normals))
    .setAttribute('TANGENT', accessor('VEC4', tangents))
    .setAttribute('TEXCOORD_0', accessor('VEC2', uvs))
    .setIndices(accessor('SCALAR', new Uint16Array([0, 1, 2, 0, 2, 3])))
    .setMaterial(tileMaterial(doc, input));
  const mesh = doc.createMesh(name).addPrimitive(primitive);
  const node = doc.createNode(name).setMesh(mesh);
  const scene = doc.createScene(name).addChild(node);
  doc.getRoot().setDefaultScene(scene);
  return new NodeIO().registerExtensions([KHRTextureTransform]).writeBinary(doc);
}

// The sampler's WebGL constants (glTF Transform types its named ones as possibly missing).
const REPEAT: GLTF.TextureWrapMode = 10497;
const LINEAR_MIPMAP_LINEAR: GLTF.TextureMinFilter = 9987;
const LINEAR: GLTF.TextureMagFilter = 9729;

function tileMaterial(doc: Document, input: TileGlbInput): Material {
  const repeat = doc.createExtension(KHRTextureTransform);
  const texture = (label: string, { data, mimeType }: GlbTexture) =>
    doc.createTexture(`${input.name} ${label}`).setImage(data).setMimeType(mimeType);
  const orm = texture('ORM', input.orm);
  const material = doc
    .createMaterial(input.name)
    .setBaseColorTexture(texture('base colour', input.baseColour))
    .setNormalTexture(texture('normal', input.normal))
    .setMetallicRoughnessTexture(orm)
    .setOcclusionTexture(orm)
    .setMetallicFactor(0)
    .setRoughnessFactor(1);
  for (const info of [
    material.getBaseColorTextureInfo(),
    material.getNormalTextureInfo(),
    material.getMetallicRoughnessTextureInfo(),
    material.getOcclusionTextureInfo(),
  ]) {
    if (!info) throw new Error('A texture of the tile has no texture info');
    info
      .setWrapS(REPEAT)
      .setWrapT(REPEAT)
      .setMinFilter(LINEAR_MIPMAP_LINEAR)
      .setMagFilter(LINEAR)
      .setExtension(
        KHRTextureTransform.EXTENSION_NAME,
        repeat.createTransform().setScale([1 / input.widthM, 1 / input.heightM]),
      );
  }
  return material;
}
