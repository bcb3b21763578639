import type { HeightSettings } from '@tessera/contract';
import type { FinishId } from '../finishes.js';
import type { WorkerJobMessage } from '../../runtime/worker-job.js';
import type { MaterialMapName } from './maps.js';

/** What the material-maps worker is given: a source file and a folder of its own. */
export interface MapsWorkerTask {
  sourcePath: string;
  workDir: string;
  seamless: boolean;
  height: HeightSettings;
  /** The finish the image's prompts name (issue 27): where the roughness lies. */
  finish?: FinishId;
}

/** The worker's result: the maps' files, beside the source. */
export interface MapsWorkerDone {
  type: 'done';
  width: number;
  height: number;
  /** Most image rows the strips held at once: the memory bound, for tests. */
  maxRowsHeld: number;
  maps: { map: MaterialMapName; path: string; bytes: number; previewPath: string }[];
  /** The image at the previews' size: the material's colour in the 3D preview. */
  colourPreviewPath: string;
}

export type MapsWorkerMessage = WorkerJobMessage<MapsWorkerDone>;
