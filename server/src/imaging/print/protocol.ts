import type { PrintRenderResult, PrintRenderTask } from './render.js';

/** What the print worker is given: the render's task, and its colour space for the estimate. */
export interface PrintWorkerTask extends PrintRenderTask {
  colourSpace: 'rgb' | 'cmyk';
}

export type PrintWorkerMessage =
  | { type: 'progress'; fraction: number }
  | ({ type: 'done' } & PrintRenderResult)
  | { type: 'error'; message: string };
