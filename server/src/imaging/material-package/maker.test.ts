/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Pixel reads of images the test made itself, at indices inside them. */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { NodeIO } from '@gltf-transform/core';
import { KHRTextureTransform } from '@gltf-transform/extensions';
import { MATERIAL_GLB_MAX_SIDE, type MaterialMap, type MaterialPreset } from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharpMaterialPackageMaker, type PackageFile } from './maker.js';
import { validatedGlb } from '../../testing/gltf.js';

/** A base colour wider than the glTF's textures may be, so the maker must shrink it. */
const WIDTH = 2600;
const HEIGHT = 1300;

let dir: string;
let image: string;
let maps: Record<MaterialMap, string>;
let serial = 0;
const folder = () => ({
  newFile: (extension: string) => ({ path: path.join(dir, `f${serial++}.${extension}`) }),
});

/** Grey pixels from `value(x, y)`, one byte each. */
function grey(value: (x: number, y: number) => number): Uint8Array {
  const pixels = new Uint8Array(WIDTH * HEIGHT);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) pixels[y * WIDTH + x] = value(x, y) & 0xff;
  }
  return pixels;
}

async function writeGrey(name: string, pixels: Uint8Array | Uint16Array): Promise<string> {
  const file = path.join(dir, name);
  await sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 1 } })
    .toColourspace(pixels instanceof Uint16Array ? 'grey16' : 'b-w')
    .png()
    .toFile(file);
  return file;
}

/** The channels of a PNG, decoded, one array per channel. */
async function channels(file: string): Promise<Uint8Array[]> {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  return Array.from({ length: info.channels }, (_, c) =>
    Uint8Array.from({ length: info.width * info.height }, (_, i) => data[i * info.channels + c]!),
  );
}

const AO = grey((x, y) => 60 + ((x * 3 + y) % 190));
const ROUGHNESS = grey((x, y) => (x + y * 7) % 256);

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'material-package-'));
  const height = new Uint16Array(WIDTH * HEIGHT).map((_, i) => (i * 37) % 65536);
  maps = {
    height: await writeGrey('height.png', height),
    'normal-opengl': path.join(dir, 'nor-gl.png'),
    'normal-directx': path.join(dir, 'nor-dx.png'),
    roughness: await writeGrey('rough.png', ROUGHNESS),
    'ambient-occlusion': await writeGrey('ao.png', AO),
  };
  const flat = (g: number) =>
    sharp({
      create: { width: WIDTH, height: HEIGHT, channels: 3, background: { r: 128, g, b: 255 } },
    }).png();
  await flat(140).toFile(maps['normal-opengl']);
  await flat(116).toFile(maps['normal-directx']);
  // A JPEG, as HD images above 25 MP are: the package's base colour is a PNG all the same.
  image = path.join(dir, 'image.jpg');
  await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#b5651d' } })
    .jpeg()
    .toFile(image);
});
afterAll(() => fsp.rm(dir, { recursive: true, force: true }));

const make = (preset: MaterialPreset) =>
  new SharpMaterialPackageMaker().make(
    { name: 'waves_hd', preset, image, maps, widthM: 1.2, heightM: 0.6, displacementM: 0.006 },
    folder(),
  );

/** A made file's bytes. */
const bytesOf = (file: PackageFile | undefined) => buffer(file!.open());
const named = (files: PackageFile[], name: string) => files.find((f) => f.name === name);

describe('the files of a material package', () => {
  it('standard: every map under its Poly Haven name, the ORM, a glTF tile and a MaterialX document', async () => {
    const files = await make('standard');
    expect(files.map((f) => f.name)).toEqual([
      'waves_hd_diff.png',
      'waves_hd_nor_gl.png',
      'waves_hd_nor_dx.png',
      'waves_hd_rough.png',
      'waves_hd_ao.png',
      'waves_hd_disp.png',
      'waves_hd_arm.png',
      'waves_hd.glb',
      'waves_hd.mtlx',
    ]);
    for (const file of files) expect((await bytesOf(file)).length).toBe(file.bytes);

    // The base colour is the image as a PNG; the maps are the stored files, byte for byte.
    const diff = await sharp(await bytesOf(named(files, 'waves_hd_diff.png'))).metadata();
    expect([diff.format, diff.width, diff.height]).toEqual(['png', WIDTH, HEIGHT]);
    const height = await bytesOf(named(files, 'waves_hd_disp.png'));
    expect(height.equals(await fsp.readFile(maps.height))).toBe(true);
    expect((await sharp(height).metadata()).depth).toBe('ushort');

    // ORM: R the occlusion, G the roughness, B no metal, pixel for pixel.
    const ormFile = path.join(dir, 'arm.png');
    await fsp.writeFile(ormFile, await bytesOf(named(files, 'waves_hd_arm.png')));
    const [r, g, b, extra] = await channels(ormFile);
    expect(extra).toBeUndefined();
    expect(Buffer.from(r!).equals(Buffer.from(AO))).toBe(true);
    expect(Buffer.from(g!).equals(Buffer.from(ROUGHNESS))).toBe(true);
    expect(b!.every((v) => v === 0)).toBe(true);

    // The glTF binary: clean for the validator, its textures shrunk to the longest side allowed.
    const glb = await bytesOf(named(files, 'waves_hd.glb'));
    const report = await validatedGlb(glb);
    expect([report.issues.numErrors, report.issues.numWarnings]).toEqual([0, 0]);
    const doc = await new NodeIO().registerExtensions([KHRTextureTransform]).readBinary(glb);
    for (const texture of doc.getRoot().listTextures()) {
      expect(texture.getSize()).toEqual([MATERIAL_GLB_MAX_SIDE, MATERIAL_GLB_MAX_SIDE / 2]);
    }
  });

  it('unreal: DirectX normals, the ORM and the height, no scenes', async () => {
    const files = await make('unreal');
    expect(files.map((f) => f.name)).toEqual([
      'waves_hd_diff.png',
      'waves_hd_nor_dx.png',
      'waves_hd_arm.png',
      'waves_hd_disp.png',
    ]);
    const normal = await bytesOf(named(files, 'waves_hd_nor_dx.png'));
    expect(normal.equals(await fsp.readFile(maps['normal-directx']))).toBe(true);
  });

  it("unity-hdrp: OpenGL normals and HDRP's mask map (metal 0, AO, detail 1, smoothness)", async () => {
    const files = await make('unity-hdrp');
    expect(files.map((f) => f.name)).toEqual([
      'waves_hd_diff.png',
      'waves_hd_nor_gl.png',
      'waves_hd_mask.png',
      'waves_hd_disp.png',
    ]);
    const maskFile = path.join(dir, 'mask.png');
    await fsp.writeFile(maskFile, await bytesOf(named(files, 'waves_hd_mask.png')));
    const [metallic, occlusion, detail, smoothness] = await channels(maskFile);
    expect(metallic!.every((v) => v === 0)).toBe(true);
    expect(Buffer.from(occlusion!).equals(Buffer.from(AO))).toBe(true);
    expect(detail!.every((v) => v === 255)).toBe(true);
    expect(Buffer.from(smoothness!).equals(Buffer.from(ROUGHNESS.map((v) => 255 - v)))).toBe(true);
  });
});
