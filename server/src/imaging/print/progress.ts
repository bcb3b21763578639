import fs from 'node:fs';
import { estimatePrintFile } from './estimate.js';
import { renderPrintFile } from './render.js';
import type { PrintWorkerTask } from './protocol.js';
import type { PrintRenderResult } from './render.js';

/** Where each step of a print render ends on the progress bar (0–1); the main pass fills the rest. */
const STAGE_END = { estimate: 0.02, bands: 0.05, strips: 0.1 } as const;
/** The main pass stops short of the end until it is done: the estimate is only an estimate. */
const MAIN_PASS_MAX = 0.99;
const POLL_MS = 250;

/**
 * Renders the print file reporting progress (0–1): libvips tells sharp nothing while it works, so
 * the main pass's share is the output file's size against the estimate of its final size — the
 * TIFF grows strip by strip as the image is computed, top to bottom.
 */
export async function renderWithProgress(
  task: PrintWorkerTask,
  onProgress: (fraction: number) => void,
): Promise<PrintRenderResult> {
  const { estimatedBytes } = await estimatePrintFile(task);
  onProgress(STAGE_END.estimate);
  let mainPass = false;
  const timer = setInterval(() => {
    if (!mainPass) return;
    fs.promises
      .stat(task.outputPath)
      .then(({ size }) => {
        const share = Math.min(1, size / estimatedBytes);
        onProgress(STAGE_END.strips + (MAIN_PASS_MAX - STAGE_END.strips) * share);
      })
      .catch(() => undefined); // not there yet
  }, POLL_MS);
  try {
    return await renderPrintFile(task, (stage) => {
      onProgress(STAGE_END[stage]);
      // The output file appears only with the main pass (the strips, if any, come before it).
      mainPass = true;
    });
  } finally {
    clearInterval(timer);
  }
}
