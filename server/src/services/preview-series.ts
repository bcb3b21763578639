import { GENERATION_RANGES, type SeriesFace } from '@tessera/contract';

// The LD file names of a preview job (issue 25). A single image is `<stem>-<hex>.png`, as the
// spec's flows have it; a series of N faces is `<series_id>-f1.png` … `<series_id>-f<N>.png`,
// where `<series_id>` is the shared `<stem>-<hex>`. The job reserves face 1's name (jobs.output),
// so every face's name follows from the job alone: a rerun after a crash writes the same names.

/** One image a preview job makes: its LD file name, and its place in the series (a series only). */
export interface PreviewOutput {
  filename: string;
  series?: SeriesFace;
}

const FACE_ONE_SUFFIX = '-f1.png';

/** Face `face`'s file name in the series `seriesId`. */
export function faceFileName(seriesId: string, face: number): string {
  return `${seriesId}-f${face}.png`;
}

/** The name a job of `faces` faces reserves (face 1's, or the single image's) for the free base. */
export function reservedName(base: string, faces: number): string {
  return faces > 1 ? faceFileName(base, 1) : `${base}.png`;
}

/**
 * The names a new job's base must find free: the single image's, or every name a series on it
 * could have (up to the most faces allowed), so that no two series of an owner share a series_id
 * even when one has lost some of its faces.
 */
export function namesToKeepFree(base: string, faces: number): string[] {
  if (faces <= 1) return [`${base}.png`];
  return Array.from({ length: GENERATION_RANGES.faces.max }, (_, i) => faceFileName(base, i + 1));
}

/** What a job whose reserved name is `reserved` makes: one image, or each face of its series. */
export function previewOutputs(reserved: string, faces: number): PreviewOutput[] {
  if (faces <= 1) return [{ filename: reserved }];
  if (!reserved.endsWith(FACE_ONE_SUFFIX)) {
    throw new Error(`A series' reserved name must be face 1's: ${reserved}`);
  }
  const seriesId = reserved.slice(0, -FACE_ONE_SUFFIX.length);
  return Array.from({ length: faces }, (_, i) => ({
    filename: faceFileName(seriesId, i + 1),
    series: { seriesId, face: i + 1, faces },
  }));
}
