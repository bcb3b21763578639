import { randomUUID } from 'node:crypto';
import {
  DEFAULT_HEIGHT_SETTINGS,
  errorText,
  PROMPT_TERMS_METADATA_KEY,
  promptRequest,
  promptTermsOf,
  serverError,
  type HeightSettings,
  type MaterialMapsJob,
  type MaterialMapsOrder,
  type MaterialMapsRequest,
  type MaterialMapsStatus,
} from '@tessera/contract';
import type { Logger } from 'pino';
import type { FileStore } from '../files/file-store.js';
import type { FinishId } from '../imaging/finishes.js';
import type { MaterialMapsMaker } from '../imaging/material-maps/maker.js';
import type { JobRecord, MapsJobParams } from '../jobs/job.js';
import { QueueFullError, type OwnerQueue } from '../jobs/queue.js';
import { PermanentJobError, type JobHandler, type JobScheduler } from '../jobs/runner.js';
import type { ImageRecord, ImageRepository } from '../store/images.js';
import type { MaterialMapRecord, MaterialMapRepository } from '../store/material-maps.js';
import { stem } from './generation.js';
import type { Owner } from '../owner.js';

export type OrderResult =
  { ok: true; status: MaterialMapsStatus } | { ok: false; status: 404 | 409 | 429; error: string };

/** How many of the owner's latest maps jobs are searched for an image's latest one. */
const RECENT_JOBS = 200;

/** brick-wall-1a2b3c_ld_normal-opengl.png: the image, its gallery and the map. */
export function mapFileName(kind: 'ld' | 'hd', image: string, map: string): string {
  return `${stem(image)}_${kind}_${map}.png`;
}

/** The small copy of a map (or of the image, 'colour') that the 3D preview loads. */
export function previewFileName(kind: 'ld' | 'hd', image: string, map: string): string {
  return `${stem(image)}_${kind}_${map}.preview.${map === 'colour' ? 'jpg' : 'png'}`;
}

/**
 * PBR material maps of a user's LD or HD image (issue 17, part 5): orders them as a job, makes
 * them through the maker (a worker thread, strip by strip), stores them in the owner's `maps`
 * area and records them; and tells how far the image's latest job is (polled over HTTP).
 */
export class MaterialMapService {
  constructor(
    private readonly images: ImageRepository,
    private readonly maps: MaterialMapRepository,
    private readonly files: FileStore,
    private readonly jobs: OwnerQueue,
    private readonly scheduler: JobScheduler,
    private readonly maker: MaterialMapsMaker,
    private readonly log: Logger,
  ) {}

  /**
   * Queues the image's maps, their height read as the order says (the defaults if it says
   * nothing). An order while the image's job is live reports that job when it reads the height
   * alike, and is refused (409) when not: the image has one live job at a time, since two would
   * write the same files, maybe at once in two processes, and leave a set made one way recorded
   * as made the other; and a refusal, unlike reporting the job, does not pass the settings over
   * in silence. The page offers no remake while a job is live, so a person rarely meets it.
   */
  async order(owner: Owner, request: MaterialMapsOrder): Promise<OrderResult> {
    const { kind, image: name } = request;
    const image = await this.images.find(owner.id, kind, name);
    if (!image) {
      return { ok: false, status: 404, error: errorText('ORDERED_IMAGE_NOT_FOUND', name) };
    }
    const height = request.height ?? DEFAULT_HEIGHT_SETTINGS;
    const key = dedupeKey(request);
    // A second round only when the live job that held the key ended between the two steps.
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const queued = await this.scheduler.enqueue({
          publicId: randomUUID(),
          ownerId: owner.id,
          kind: 'maps',
          params: { owner, kind, image: image.filename, height },
          dedupeKey: key,
        });
        if (queued) break;
      } catch (err) {
        if (err instanceof QueueFullError) {
          return { ok: false, status: 429, error: errorText('MAPS_QUEUE_FULL', err.limit) };
        }
        throw err;
      }
      const live = await this.jobs.findLive(owner.id, 'maps', key);
      if (!live) continue;
      if (!sameHeight(heightOf(live.params), height)) {
        return { ok: false, status: 409, error: errorText('MAPS_HEIGHT_BUSY') };
      }
      break;
    }
    this.log.info({ user: owner.username, kind, image: name, height }, 'material maps ordered');
    return { ok: true, status: await this.statusOf(owner, image, request) };
  }

  /** The image's maps and its latest job; undefined for an image the owner does not have. */
  async status(
    owner: Owner,
    request: MaterialMapsRequest,
  ): Promise<MaterialMapsStatus | undefined> {
    const image = await this.images.find(owner.id, request.kind, request.image);
    return image && this.statusOf(owner, image, request);
  }

  private async statusOf(
    owner: Owner,
    image: ImageRecord,
    request: MaterialMapsRequest,
  ): Promise<MaterialMapsStatus> {
    const key = dedupeKey(request);
    const job =
      (await this.jobs.findLive(owner.id, 'maps', key)) ??
      (await this.jobs.list(owner.id, 'maps', RECENT_JOBS)).find(
        (candidate) => candidate.dedupeKey === key,
      );
    const set = await this.maps.ofImage(image.id);
    return {
      job: job ? jobView(job) : null,
      maps: set?.maps ?? [],
      ...(set && { colourPreview: previewFileName(request.kind, image.filename, 'colour') }),
      seamless: set?.seamless ?? (await this.isSeamless(owner, image)),
      height: set?.height ?? DEFAULT_HEIGHT_SETTINGS,
      ...(set && { madeAt: set.madeAt }),
    };
  }

  /**
   * Whether the image is a seamless texture: an LD image's metadata says so (Generate's
   * Seamless option); an HD image is seamless when its LD source is.
   */
  private async isSeamless(owner: Owner, image: ImageRecord): Promise<boolean> {
    return (await this.ldOf(owner, image))?.metadata['seamless'] === true;
  }

  /**
   * The finish the image's prompts name (issue 27: its LD metadata's understood terms, an HD
   * image's LD source's), which puts the roughness map in its range; none for other images.
   */
  private async finishOf(owner: Owner, image: ImageRecord): Promise<FinishId | undefined> {
    const ld = await this.ldOf(owner, image);
    const terms = promptTermsOf(ld?.metadata[PROMPT_TERMS_METADATA_KEY]);
    return terms && promptRequest(terms).finish;
  }

  /** The LD image an image is or was upscaled from (undefined when that is gone). */
  private async ldOf(owner: Owner, image: ImageRecord): Promise<ImageRecord | undefined> {
    if (image.kind === 'ld') return image;
    const source = image.metadata['source_image'];
    if (typeof source !== 'string') return undefined;
    return this.images.find(owner.id, 'ld', source);
  }

  /**
   * The job handler: make the maps → write each file (a rerun writes the same names again) →
   * record the set. An image deleted meanwhile leaves nothing behind and fails the job for good.
   */
  readonly runMaps: JobHandler<'maps'> = async (job, { progress, signal }) => {
    const { owner, kind, image } = job.params;
    const height = heightOf(job.params);
    const record = await this.images.find(owner.id, kind, image);
    if (!record) throw new PermanentJobError(serverError('IMAGE_GONE', image));
    const seamless = await this.isSeamless(owner, record);
    const finish = await this.finishOf(owner, record);
    const made = await this.maker.make(this.files.read(owner.username, kind, image), {
      seamless,
      height,
      ...(finish && { finish }),
      onProgress: (percent) => progress(percent * 0.95),
      signal,
    });
    try {
      signal.throwIfAborted();
      const stored: MaterialMapRecord[] = [];
      // Previews first: a recorded set always has every file it names.
      await this.files.write(
        owner.username,
        'maps',
        previewFileName(kind, image, 'colour'),
        made.openColourPreview(),
      );
      for (const map of made.maps) {
        const filename = mapFileName(kind, image, map.map);
        const preview = previewFileName(kind, image, map.map);
        await this.files.write(owner.username, 'maps', preview, map.openPreview());
        const file = await this.files.write(owner.username, 'maps', filename, map.open());
        stored.push({ map: map.map, filename, bytes: file.bytes, preview });
      }
      try {
        await this.maps.replace(
          owner.id,
          record.id,
          { seamless, height, maps: stored },
          new Date().toISOString(),
        );
      } catch (err) {
        if (await this.images.find(owner.id, kind, image)) throw err;
        await this.removeFiles(owner, [
          previewFileName(kind, image, 'colour'),
          ...stored.flatMap((m) => [m.filename, m.preview]),
        ]);
        throw new PermanentJobError(serverError('IMAGE_GONE', image));
      }
      this.log.info(
        {
          user: owner.username,
          image,
          kind,
          seamless,
          height,
          job: job.id,
          rowsHeld: made.maxRowsHeld,
        },
        'material maps made',
      );
      // The job's output: the first map, by which the set is named.
      return stored[0]?.filename ?? image;
    } finally {
      await made.dispose();
    }
  };

  private async removeFiles(owner: Owner, names: readonly string[]): Promise<void> {
    for (const name of names) {
      await (await this.files.prepareRemoval(owner.username, 'maps', name)).commit();
    }
  }

  /**
   * The image is being deleted: its maps job stops (a running one writes nothing more) and its
   * map files go. The rows go with the image's row.
   */
  readonly removeFor = async (owner: Owner, image: ImageRecord): Promise<void> => {
    const key = dedupeKey({ kind: image.kind, image: image.filename });
    const cancelled = await this.jobs.cancelByKeyPrefix(owner.id, 'maps', key, new Date());
    this.scheduler.abortCancelled(cancelled.map((job) => job.id));
    const set = await this.maps.ofImage(image.id);
    if (!set) return;
    await this.removeFiles(owner, [
      previewFileName(image.kind, image.filename, 'colour'),
      ...set.maps.flatMap((m) => [m.filename, m.preview]),
    ]);
  };

  /** The file names of the owner's maps: what a ZIP of maps may hold. */
  filenames(owner: Owner): Promise<Set<string>> {
    return this.maps.filenames(owner.id);
  }
}

function dedupeKey(request: MaterialMapsRequest): string {
  return `maps:${request.kind}:${request.image}`;
}

/** The job's height settings; a job stored before they existed reads the defaults. */
function heightOf(params: MapsJobParams): HeightSettings {
  return params.height ?? DEFAULT_HEIGHT_SETTINGS;
}

function sameHeight(a: HeightSettings, b: HeightSettings): boolean {
  return a.invert === b.invert && a.strength === b.strength;
}

function jobView(job: JobRecord<'maps'>): MaterialMapsJob {
  return {
    id: job.publicId,
    status: job.status,
    percent: job.status === 'finished' ? 100 : job.percent,
    ...(job.error && job.status !== 'finished' ? { error: job.error } : {}),
  };
}
