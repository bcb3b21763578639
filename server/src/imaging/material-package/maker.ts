// Makes the files of a material package (issue 26, part 3) from an image and its stored maps:
// the port the material-package service uses, and its implementation with sharp.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  MATERIAL_GLB_MAX_SIDE,
  MATERIAL_PRESET_FILES,
  materialPackageFileName,
  presetHasScenes,
  type MaterialMap,
  type MaterialPackageFile,
  type MaterialPreset,
} from '@tessera/contract';
import { materialxDocument } from './materialx.js';
import { glbTexture, pngOf, writeOrm, writeUnityMask, type PackFolder } from './packed-maps.js';
import { buildTileGlb } from './tile-glb.js';

export interface MaterialPackageInput {
  /** `waves_ld`: every file is named `<name>_<suffix>.png`, the scenes `<name>.glb`, `.mtlx`. */
  name: string;
  preset: MaterialPreset;
  /** Local paths: the image (the base colour) and its stored maps. */
  image: string;
  maps: Readonly<Record<MaterialMap, string>>;
  /** The tile's physical size in metres. */
  widthM: number;
  heightM: number;
  /** How far the height's full range displaces the surface (the MaterialX document), in metres. */
  displacementM: number;
}

/** One file of the package, readable until its folder is disposed. */
export interface PackageFile {
  name: string;
  bytes: number;
  open(): Readable;
}

/**
 * Makes a package's files in `folder` (a scratch folder the caller disposes of once they are
 * sent); the maps the package carries as they are stored are read from where they lie.
 */
export interface MaterialPackageMaker {
  make(input: MaterialPackageInput, folder: PackFolder): Promise<PackageFile[]>;
}

/**
 * libvips does the pixel work in its own threads, each file read sequentially and written as it
 * goes; the files are made side by side.
 */
export class SharpMaterialPackageMaker implements MaterialPackageMaker {
  async make(input: MaterialPackageInput, folder: PackFolder): Promise<PackageFile[]> {
    const wanted = MATERIAL_PRESET_FILES[input.preset];
    const scenes = presetHasScenes(input.preset);
    const sources = {
      ambientOcclusion: input.maps['ambient-occlusion'],
      roughness: input.maps.roughness,
    };
    const packed = (write: typeof writeOrm) => async () => {
      const { path } = folder.newFile('png');
      await write(sources, path, folder);
      return path;
    };
    const stored = (map: MaterialMap) => () => Promise.resolve(input.maps[map]);
    const makers: Record<MaterialPackageFile, () => Promise<string>> = {
      baseColour: () => pngOf(input.image, folder),
      // The maps go in as they are stored (the height keeps its 16 bits).
      normalOpenGl: stored('normal-opengl'),
      normalDirectX: stored('normal-directx'),
      roughness: stored('roughness'),
      ambientOcclusion: stored('ambient-occlusion'),
      height: stored('height'),
      orm: packed(writeOrm),
      unityMask: packed(writeUnityMask),
    };
    const needed = new Set<MaterialPackageFile>(wanted);
    // The glTF binary's textures come from the package's own base colour, normal and ORM.
    if (scenes) for (const file of ['baseColour', 'normalOpenGl', 'orm'] as const) needed.add(file);
    const made = new Map(
      await Promise.all([...needed].map(async (file) => [file, await makers[file]()] as const)),
    );
    const pathOf = (file: MaterialPackageFile) => {
      const path = made.get(file);
      if (path === undefined) throw new Error(`The package's ${file} was not made`);
      return path;
    };

    const files = wanted.map((file) => ({
      name: materialPackageFileName(input.name, file),
      path: pathOf(file),
    }));
    if (scenes) {
      files.push(
        { name: `${input.name}.glb`, path: await this.writeGlb(input, pathOf, folder) },
        { name: `${input.name}.mtlx`, path: await this.writeMaterialx(input, folder) },
      );
    }
    return Promise.all(
      files.map(async ({ name, path }) => ({
        name,
        bytes: (await fsp.stat(path)).size,
        open: () => fs.createReadStream(path),
      })),
    );
  }

  private async writeGlb(
    input: MaterialPackageInput,
    pathOf: (file: MaterialPackageFile) => string,
    folder: PackFolder,
  ): Promise<string> {
    const [baseColour, normal, orm] = await Promise.all([
      glbTexture(pathOf('baseColour'), MATERIAL_GLB_MAX_SIDE, 'image/jpeg'),
      glbTexture(pathOf('normalOpenGl'), MATERIAL_GLB_MAX_SIDE, 'image/png'),
      glbTexture(pathOf('orm'), MATERIAL_GLB_MAX_SIDE, 'image/png'),
    ]);
    const glb = await buildTileGlb({
      name: input.name,
      widthM: input.widthM,
      heightM: input.heightM,
      // JPEG for the colour (a photograph's codec); the data maps stay lossless.
      baseColour: { data: baseColour, mimeType: 'image/jpeg' },
      normal: { data: normal, mimeType: 'image/png' },
      orm: { data: orm, mimeType: 'image/png' },
    });
    const { path } = folder.newFile('glb');
    await fsp.writeFile(path, glb);
    return path;
  }

  private async writeMaterialx(input: MaterialPackageInput, folder: PackFolder): Promise<string> {
    const document = materialxDocument({
      name: input.name,
      files: {
        baseColour: materialPackageFileName(input.name, 'baseColour'),
        roughness: materialPackageFileName(input.name, 'roughness'),
        normalOpenGl: materialPackageFileName(input.name, 'normalOpenGl'),
        height: materialPackageFileName(input.name, 'height'),
      },
      widthM: input.widthM,
      heightM: input.heightM,
      displacementM: input.displacementM,
    });
    const { path } = folder.newFile('mtlx');
    await fsp.writeFile(path, document);
    return path;
  }
}
