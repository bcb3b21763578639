/**
 * A series of faces on ComfyUI (issue 25, docs/comfyui.md "Series"): face 1 is the preview
 * template's image, as a single preview; faces 2..N are the series template run on face 1, each
 * with its own seed (the series' seed + k - 1): the interior repainted, face 1's outer band kept
 * (workflows.ts seriesMask). As every face has face 1's edges, and face 1 tiles when seamless, any
 * face joins any face.
 *
 * One prompt runs at a time, face after face, and the job notes each as it is queued (it keeps
 * one, the last). After a restart: faces already written are kept (face 1 gone: every face is
 * made again, the others deleted first, as they were made from the old face 1); the prompt noted
 * is picked up only by the face whose work it is, compared node by node with what that face
 * would queue (the uploaded file's name aside); another face's prompt is taken back. So a face
 * never gets another face's image, nor one made from another face 1.
 */
import fs from 'node:fs/promises';
import { previewSettingsIn } from '@tessera/contract';
import type { GeneratedImage, GenerateParams, ProgressReporter, RemoteWork } from '../engine.js';
import type { ComfyWorkflow } from './api-types.js';
import { rising } from './progress.js';
import type { WorkflowJob } from './workflow-attempt.js';
import {
  fillPreview,
  fillSeries,
  PREVIEW_NODES,
  SERIES_NODES,
  type WorkflowTemplates,
} from './workflows.js';

/** Runs one workflow job to its image (the engine's runWorkflow, with its outage handling). */
export type RunJob = (job: WorkflowJob, progress: ProgressReporter) => Promise<GeneratedImage>;

/** The LoadImage value compared prompts are filled with (the upload slot differs by run). */
const ANY_UPLOAD = '<upload>';

/** The preview job of a single image, or of face 1 of a series (`checked`: see sameWork). */
export function previewJob(
  templates: WorkflowTemplates,
  params: GenerateParams,
  checked = false,
): WorkflowJob {
  const fill = (uploaded: string) =>
    fillPreview(templates.preview, { ...previewSettingsIn(params), referenceImage: uploaded });
  return {
    inputPath: params.referencePath,
    mask: params.mask,
    outputNode: PREVIEW_NODES.output.id,
    fill,
    // Previews are PNG.
    output: { ...params, encoding: 'png' },
    remote: params.remote,
    ...(checked && { accepts: (prompt) => sameWork(prompt, fill(ANY_UPLOAD)) }),
  };
}

/** Face k (2..N) of the series: the series template on face 1, with the face's seed. */
function faceJob(
  templates: WorkflowTemplates,
  params: GenerateParams,
  face: number,
  outputPath: string,
  facePath: string,
  remote: RemoteWork | undefined,
): WorkflowJob {
  const fill = (uploaded: string) =>
    fillSeries(templates.series, {
      ...previewSettingsIn(params),
      seed: params.seed + face - 1,
      faceImage: uploaded,
    });
  return {
    inputPath: facePath,
    mask: false,
    outputNode: SERIES_NODES.output.id,
    fill,
    output: {
      outputPath,
      encoding: 'png',
      width: params.width,
      height: params.height,
      seamless: params.seamless,
    },
    remote,
    accepts: (prompt) => sameWork(prompt, fill(ANY_UPLOAD)),
  };
}

/** Writes every face of `params.seriesPaths` (face 1 first); face 1's size. */
export async function generateSeries(
  templates: WorkflowTemplates,
  params: GenerateParams,
  paths: readonly string[],
  run: RunJob,
  progress: ProgressReporter,
): Promise<GeneratedImage> {
  const report = rising(progress);
  report(0);
  const [facePath = params.outputPath] = paths;
  if (!(await exists(facePath))) {
    // Made from a face 1 that is gone: they would not share the new one's edges.
    await Promise.all(paths.slice(1).map((path) => fs.rm(path, { force: true })));
  }
  let previous = params.remote?.previous;
  const remote = (): RemoteWork | undefined =>
    params.remote && {
      previous,
      queued: async (prompt) => {
        previous = undefined;
        await params.remote?.queued(prompt);
      },
    };
  let size: GeneratedImage = { width: params.width, height: params.height };
  for (const [index, outputPath] of paths.entries()) {
    const share = (percent: number) => report((index * 100 + percent) / paths.length);
    if (await exists(outputPath)) {
      share(100);
      continue;
    }
    const job =
      index === 0
        ? previewJob(templates, { ...params, outputPath, remote: remote() }, true)
        : faceJob(templates, params, index + 1, outputPath, facePath, remote());
    const made = await run(job, share);
    if (index === 0) size = made;
    // Picked up by this face, or taken back as other work: no later face looks for it.
    previous = undefined;
  }
  return size;
}

/**
 * Whether `found` (a prompt on the server) is the work `wanted` stands for: the same nodes with
 * the same classes and inputs, LoadImage's file name aside (each run uploads to a slot of its own).
 */
export function sameWork(found: ComfyWorkflow | undefined, wanted: ComfyWorkflow): boolean {
  if (!found) return false;
  const essence = (workflow: ComfyWorkflow) =>
    canonical(
      Object.fromEntries(
        Object.entries(workflow).map(([id, node]) => [
          id,
          {
            class_type: node.class_type,
            inputs:
              node.class_type === 'LoadImage' ? { ...node.inputs, image: ANY_UPLOAD } : node.inputs,
          },
        ]),
      ),
    );
  return essence(found) === essence(wanted);
}

/** JSON with every object's keys sorted. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Whether a face is written (engines write a partial name and rename it into place). */
async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (stat) => stat.isFile() && stat.size > 0,
    () => false,
  );
}
