import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { runWorkerJob } from '../../runtime/worker-job.js';
import type { HeightSettings } from '@tessera/contract';
import type { FinishId } from '../finishes.js';
import type { MaterialMapName } from './maps.js';
import type { MapsWorkerDone, MapsWorkerTask } from './protocol.js';

export interface MakeMapsOptions {
  /** A seamless texture: the filters wrap around its edges, so its maps tile too. */
  seamless: boolean;
  /** How the height is read from the picture: inverted or not, and the relief's strength. */
  height: HeightSettings;
  /** The finish the image's prompts name (issue 27), which puts the roughness in its range. */
  finish?: FinishId;
  /** 0 to 100. */
  onProgress: (percent: number) => void;
  signal: AbortSignal;
}

/** One finished map, readable until the set is disposed. */
export interface MadeMap {
  map: MaterialMapName;
  bytes: number;
  open(): Readable;
  /** The map at most MATERIAL_PREVIEW_MAX_SIDE px a side, PNG. */
  openPreview(): Readable;
}

export interface MadeMaterialMaps {
  width: number;
  height: number;
  /** Most image rows held at once while making them. */
  maxRowsHeld: number;
  maps: MadeMap[];
  /** The image at the previews' size, JPEG. */
  openColourPreview(): Readable;
  /** Removes the maps' scratch files. */
  dispose(): Promise<void>;
}

/**
 * Makes the PBR maps of an image (the port the material-maps service uses): the image comes
 * as a stream and the maps go back as streams, so the service needs no file path.
 */
export interface MaterialMapsMaker {
  make(image: Readable, options: MakeMapsOptions): Promise<MadeMaterialMaps>;
}

/**
 * A folder of local files to work in, removed with `dispose`: what the maker needs of a scratch
 * folder, so imaging knows paths and not the file store (the root passes `files.openScratch`).
 */
export interface WorkFolder {
  /** A new path in the folder (nothing written yet), ending in `.extension`. */
  newFile(extension: string): { readonly path: string };
  dispose(): Promise<void>;
}

/**
 * Makes the maps in a worker thread, in a scratch folder of the file store's per run (so a
 * crash's leftovers go with the store's `clearScratch` at the next start).
 */
export class WorkerMaterialMapsMaker implements MaterialMapsMaker {
  constructor(private readonly openScratch: () => Promise<WorkFolder>) {}

  async make(image: Readable, options: MakeMapsOptions): Promise<MadeMaterialMaps> {
    options.signal.throwIfAborted();
    const scratch = await this.openScratch();
    const dispose = () => scratch.dispose();
    try {
      const sourcePath = scratch.newFile('source').path;
      // The worker names its own outputs, beside the source in the scratch folder.
      const workDir = path.dirname(sourcePath);
      await pipeline(image, fs.createWriteStream(sourcePath), { signal: options.signal });
      const task: MapsWorkerTask = {
        sourcePath,
        workDir,
        seamless: options.seamless,
        height: options.height,
        ...(options.finish && { finish: options.finish }),
      };
      const done = await runWorkerJob<MapsWorkerDone>(import.meta.url, 'worker', task, {
        onProgress: options.onProgress,
        signal: options.signal,
        names: { job: 'Material maps', worker: 'material-maps' },
      });
      return {
        width: done.width,
        height: done.height,
        maxRowsHeld: done.maxRowsHeld,
        maps: done.maps.map(({ map, path: file, bytes, previewPath }) => ({
          map,
          bytes,
          open: () => fs.createReadStream(file),
          openPreview: () => fs.createReadStream(previewPath),
        })),
        openColourPreview: () => fs.createReadStream(done.colourPreviewPath),
        dispose,
      };
    } catch (err) {
      await dispose();
      throw err;
    }
  }
}
