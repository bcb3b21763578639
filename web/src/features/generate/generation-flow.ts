import { POLL_INTERVAL_MS, TEXT_BUNDLES, previewRequestFields, seedFor } from '@tessera/contract';
import type { GenerationForm, GenerationStatusResponse, LdImage } from '@tessera/contract';
import { facesOfSeries, seriesFaceOf } from '../../components/gallery/series';
import type { GenerationFlowApi } from '../../lib/api/generation-flow';
import { HttpError } from '../../lib/api/http';
import { currentTexts } from '../../lib/i18n';

/** The texts in the language shown when one is written. */
const texts = () => currentTexts(TEXT_BUNDLES.texts);

/**
 * The Generate flow of SPEC §4 (checklist G12–G17, P1–P4), free of React and of the network:
 * every call goes through `GenerationFlowApi`, so tests drive it with a fake server while the
 * rules (fields, seeds, texts) are the contract's own.
 */

export interface GenerationBatch {
  user: string;
  reference: File;
  form: GenerationForm;
  /** The tags every result gets. */
  tagIds: readonly string[];
}

export interface GenerationEvents {
  /** Overall batch progress, 0 to 100 (see `batchPercent`). */
  onProgress?(percent: number): void;
  /**
   * What the running job waits for, as its status says (beyond the spec: the image storage
   * unreachable, retrying); undefined once it goes on, or when no job runs.
   */
  onNotice?(notice: string | undefined): void;
  /**
   * Item `index` is in the LD list: first as generated, then again with its tags assigned. A
   * series (Faces > 1, issue 25) gives each face, `slot` 0 being face 1; a single image is slot 0.
   */
  onImage?(index: number, image: LdImage, slot: number): void;
}

export interface FlowOptions {
  pollIntervalMs?: number;
  wait?: (ms: number) => Promise<void>;
  newId?: () => string;
  random?: () => number;
}

export type BatchResult =
  | { ok: true; images: LdImage[] }
  | {
      ok: false;
      /** The item that failed; the items after it were never posted. */
      index: number;
      /** One of SPEC §8's "other generation messages" when the failure is one of theirs. */
      detail: string | undefined;
      cause: unknown;
    };

/** A failure with one of SPEC §8's specific texts (the batch still ends in generationError). */
export class GenerationStepError extends Error {
  override readonly name = 'GenerationStepError';
}

const defaultWait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The number shown in 'Generating... (n%)': the progress of the whole batch, each item counting
 * for an equal share, so it only ever grows while a batch runs (an item's own percent would fall
 * back to 0 at every new item).
 */
export function batchPercent(
  finishedItems: number,
  itemPercent: number,
  batchSize: number,
): number {
  if (batchSize <= 0) return 0;
  const share = (finishedItems * 100 + Math.min(Math.max(itemPercent, 0), 100)) / batchSize;
  return Math.min(100, Math.floor(share));
}

/**
 * Runs a batch item after item (SPEC §4 steps 2–5); any failure stops it. Resolves, never
 * rejects: the caller shows 'Error en la generación de imágenes.' for a failed result.
 */
export async function runGenerationBatch(
  api: GenerationFlowApi,
  batch: GenerationBatch,
  events: GenerationEvents = {},
  options: FlowOptions = {},
): Promise<BatchResult> {
  const interval = options.pollIntervalMs ?? POLL_INTERVAL_MS;
  const wait = options.wait ?? defaultWait;
  const newId = options.newId ?? (() => crypto.randomUUID());
  const size = batch.form.batchSize;
  const images: LdImage[] = [];

  let notice: string | undefined;
  const status = async (): Promise<GenerationStatusResponse | null> => {
    let latest: GenerationStatusResponse | null;
    try {
      latest = await api.previewStatus();
    } catch (error) {
      throw new GenerationStepError(texts().generateStatusError, { cause: error });
    }
    // Every answer says whether a job waits: the notice lasts exactly as long as it does.
    const now = latest?.status === 'in_progress' ? latest.notice : undefined;
    if (now !== notice) events.onNotice?.((notice = now));
    return latest;
  };

  for (let index = 0; index < size; index++) {
    const report = (itemPercent: number) =>
      events.onProgress?.(batchPercent(index, itemPercent, size));
    try {
      report(0);
      // Step 2: an earlier job (another tab, a batch left behind) runs first.
      for (let latest = await status(); latest?.status === 'in_progress'; latest = await status()) {
        await wait(interval);
      }

      const fields = previewRequestFields({
        id: newId(),
        user: batch.user,
        imageName: batch.reference.name,
        form: batch.form,
        seed: seedFor(batch.form.use_fixed_seed, options.random, batch.form.seed),
      });
      await api.postPreview(fields, batch.reference).catch((error: unknown) => {
        // A refusal the server wrote for the person (a full queue, the storage quota): its text.
        if (error instanceof HttpError && error.status >= 400 && error.status < 500)
          throw new GenerationStepError(error.message, { cause: error });
        throw error;
      });

      // The job just posted is now the user's latest: follow it until it starts and finishes.
      const output = await followJob(status, wait, interval, report);

      // Step 3.
      await api.refreshLowDefinition();
      const list = await api.listLowDefinition();
      const listed = list.find((image) => image.filename === output);
      if (!listed) throw new GenerationStepError(texts().metadataError);
      const faces = batch.form.faces > 1 ? facesOf(listed, list) : [listed];

      // Step 4: shown first, then tagged (each face of a series).
      faces.forEach((face, slot) => events.onImage?.(index, face, slot));
      for (const [slot, face] of faces.entries()) {
        let image = face;
        for (const tagId of batch.tagIds) {
          await api.assignTag(tagId, image.filename);
          if (!image.tags.includes(tagId)) image = { ...image, tags: [...image.tags, tagId] };
        }
        if (image !== face) events.onImage?.(index, image, slot);
        images.push(image);
      }
      report(100);
    } catch (error) {
      // Step 5.
      const detail = error instanceof GenerationStepError ? error.message : undefined;
      if (notice !== undefined) events.onNotice?.((notice = undefined));
      return { ok: false, index, detail, cause: error };
    }
  }
  return { ok: true, images };
}

/**
 * The faces of the series whose face 1 the job named (issue 25): every listed image of its
 * series_id, face 1 first. An output without series keys is a single image.
 */
function facesOf(first: LdImage, list: readonly LdImage[]): LdImage[] {
  const series = seriesFaceOf(first);
  if (!series) return [first];
  const others = facesOfSeries(list, series.seriesId).filter((face) => face !== first);
  return [first, ...others];
}

/** Polls the latest preview job until it is finished (its output name) or failed (throws). */
async function followJob(
  status: () => Promise<GenerationStatusResponse | null>,
  wait: (ms: number) => Promise<void>,
  interval: number,
  report: (itemPercent: number) => void,
): Promise<string> {
  for (;;) {
    const latest = await status();
    // Just posted, so there is a job: an answer without one is a status failure.
    if (latest === null) throw new GenerationStepError(texts().generateStatusError);
    switch (latest.status) {
      case 'finished':
        if (!latest.output_image) throw new GenerationStepError(texts().latestImageError);
        return latest.output_image;
      case 'error':
        throw new Error('The preview job failed');
      case 'in_progress':
        report(latest.percent);
        break;
      case 'queued':
        // Not started yet, or waiting for its retry after a failed attempt.
        break;
    }
    await wait(interval);
  }
}
