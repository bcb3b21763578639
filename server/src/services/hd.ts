import {
  buildHdCommand,
  errorText,
  HD_DETAIL_WIDTH_KEY,
  serverError,
  hdFactorsFor,
  hdPrintSize,
  hdSizesForImage,
  hdTargetSize,
  readSeriesFace,
  seriesMetadata,
  sizeLabelFromFactors,
  type CommandPayload,
  type HdJob,
  type HdJobsResponse,
  type HdSizeLabel,
  type HdStatusMessage,
} from '@tessera/contract';
import type { Logger } from 'pino';
import type { Engine } from '../engines/engine.js';
import { withScratch, type FileStore } from '../files/file-store.js';
import { HD_ENCODINGS, hdEncodingFor } from '../imaging/hd-encodings.js';
import { copyWithPhysicalSize } from '../imaging/physical-size.js';
import { makeHdThumbnail, readImageSize } from '../imaging/probe.js';
import { faultPoint } from '../runtime/faults.js';
import type { HdJobParams, JobRecord } from '../jobs/job.js';
import { QueueFullError, type OwnerQueue } from '../jobs/queue.js';
import { PermanentJobError, type JobHandler, type JobScheduler } from '../jobs/runner.js';
import type { ImageRepository, NewImage } from '../store/images.js';
import { stem } from './generation.js';
import type { Owner } from '../owner.js';
import { thumbnailName } from './images.js';
import { ServiceError } from './errors.js';
import { noStorageGate, type StorageGate } from './quotas.js';

/** Sends an HD status message to a user (query/status-generate-image/user/{username}). */
export interface HdStatusPublisher {
  publish(username: string, message: HdStatusMessage): void;
}

export type CancelResult = 'cancelled' | 'not-queued' | 'unknown';

/**
 * How an order ended at once: queued, or refused (the refusal is also told on the status topic,
 * as for every order). The HTTP order answers it; the MQTT command has no answer (SPEC §7).
 */
export type HdOrderOutcome =
  | { result: 'queued' }
  | {
      result:
        'image-not-found' | 'size-not-offered' | 'over-quota' | 'queue-full' | 'already-ordered';
      error: string;
    };
export type MoveResult = 'moved' | 'not-queued' | 'unknown';

/**
 * The HD pipeline (SPEC §4): checks and queues generate-image orders, runs them through the
 * engine's upscaler, records the HD images, and tells the user every state change.
 */
export class HdService {
  constructor(
    private readonly images: ImageRepository,
    private readonly files: FileStore,
    private readonly jobs: OwnerQueue,
    private readonly scheduler: JobScheduler,
    private readonly status: HdStatusPublisher,
    private readonly engine: Engine,
    private readonly log: Logger,
    private readonly quota: StorageGate = noStorageGate,
  ) {}

  private notify(username: string, message: HdStatusMessage): void {
    this.status.publish(username, message);
  }

  /**
   * Takes a generate-image command (already parsed by the contract, so the factors are a row of
   * the size table). The image must be the owner's and the size one of its format's; one job per
   * image and size runs at a time: ordering it again reports the running job's status instead.
   */
  async order(owner: Owner, command: CommandPayload<'generate-image'>): Promise<HdOrderOutcome> {
    const refuse = (result: Exclude<HdOrderOutcome['result'], 'queued'>, error: string) => {
      this.log.info({ user: owner.username, image: command.image, error }, 'HD order refused');
      this.notify(owner.username, {
        id: command.id,
        image: command.image,
        status: 'error',
        percent: 0,
        error,
      });
      return { result, error };
    };
    const source = await this.images.find(owner.id, 'ld', command.image);
    if (!source)
      return refuse('image-not-found', errorText('ORDERED_IMAGE_NOT_FOUND', command.image));
    // The command's factors name a size (the contract matched them to a row, to 2 decimals);
    // the job takes that row's factors, so the size table is their one source.
    const size = sizeLabelFromFactors(command);
    const factors = size && hdFactorsFor(size);
    if (!size || !factors || !hdSizesForImage(source.width, source.height).includes(size)) {
      return refuse('size-not-offered', errorText('HD_SIZE_NOT_OFFERED', size ?? '?'));
    }
    const params: HdJobParams = {
      owner,
      image: source.filename,
      size,
      factors,
      seed: Number(command.seed),
    };
    // Before the job is queued: an HD image's size is unknown until made (issue 29, part 3).
    const overQuota = await this.quota.storageRefusal(owner, 0);
    if (overQuota) return refuse('over-quota', overQuota);
    const dedupeKey = `hd:${source.filename}:${size}`;
    let job: JobRecord<'hd'> | undefined;
    try {
      job = await this.scheduler.enqueue({
        publicId: command.id,
        ownerId: owner.id,
        kind: 'hd',
        params,
        dedupeKey,
      });
    } catch (err) {
      if (err instanceof QueueFullError)
        return refuse('queue-full', errorText('HD_QUEUE_FULL', err.limit));
      throw err;
    }
    if (job) return { result: 'queued' };
    const live = await this.jobs.findLive(owner.id, 'hd', dedupeKey);
    this.log.info({ user: owner.username, image: source.filename, size }, 'HD order already live');
    // This id ends here (a client would count it queued for ever otherwise); the live job's own
    // status follows under its id.
    const error = errorText('HD_ALREADY_ORDERED', source.filename, size);
    this.notify(owner.username, {
      id: command.id,
      image: command.image,
      status: 'error',
      percent: 0,
      error,
      reason: 'already-ordered',
    });
    if (live) this.announce(live);
    return { result: 'already-ordered', error };
  }

  /**
   * An order naming its size by label (the HTTP order, issue 30, part 1): the command the app
   * would send, its factors from the size table and its seed from the image's metadata, then
   * the same rules as any order.
   */
  async orderSize(
    owner: Owner,
    order: { id: string; image: string; size: HdSizeLabel },
  ): Promise<HdOrderOutcome> {
    const source = await this.images.find(owner.id, 'ld', order.image);
    const command = buildHdCommand({
      id: order.id,
      user: owner.username,
      image: order.image,
      metadata: source?.metadata ?? {},
      sizeLabel: order.size,
    });
    return this.order(owner, command);
  }

  /** One of the owner's HD jobs by the id it was ordered with, as the queue page shows it. */
  async job(owner: Owner, id: string): Promise<HdJob | undefined> {
    const job = await this.jobs.findByPublicId(owner.id, 'hd', id);
    return job && this.view(job, undefined);
  }

  /** A cancelled job ends its id on the status stream, so no client counts it queued still. */
  private notifyCancelled(job: JobRecord): void {
    if (job.kind !== 'hd') return;
    this.notify(job.params.owner.username, {
      id: job.publicId,
      image: job.params.image,
      status: 'error',
      percent: job.percent,
      error: errorText('HD_JOB_CANCELLED'),
      reason: 'cancelled',
    });
  }

  /** The runner's listener: every state change of an HD job becomes a status message. */
  readonly announce = (job: JobRecord): void => {
    if (job.kind !== 'hd') return;
    const { owner, image } = job.params;
    const base = { id: job.publicId, image };
    switch (job.status) {
      case 'queued':
        // A failed attempt that will be retried is queued again, not an error: 'error' ends an
        // id for every client (SPEC §4), and only the last failure is the end.
        this.notify(owner.username, { ...base, status: 'queued', percent: 0 });
        return;
      case 'in_progress':
        this.notify(owner.username, {
          ...base,
          status: 'in_progress',
          percent: job.percent,
          ...(job.notice !== undefined && { notice: job.notice }),
        });
        return;
      case 'finished':
        this.notify(owner.username, {
          ...base,
          status: 'finished',
          percent: 100,
          ...(job.output ? { output_image: job.output } : {}),
        });
        return;
      case 'error':
        this.notify(owner.username, {
          ...base,
          status: 'error',
          percent: job.percent,
          error: job.error ?? 'HD generation failed',
        });
        return;
      case 'cancelled':
        // Told by whoever cancelled it (cancel, cancelForImage), which also knows of the jobs
        // cancelled while queued, or running in another process: the runner never sees those.
        return;
    }
  };

  /**
   * The job handler, in the commit order of docs/reliability.md: reserve the output name →
   * upscale to the size's exact pixels → thumbnail → HD file → record. A rerun after a crash
   * reuses the reserved name (no `-2` copy) and finds the record if the crash came after it.
   */
  readonly runHd: JobHandler<'hd'> = async (job, { progress, signal, reserveOutput, remote }) => {
    const { owner, image, size, factors, seed } = job.params;
    const source = await this.images.find(owner.id, 'ld', image);
    if (!source) throw new PermanentJobError(serverError('IMAGE_GONE', image));
    const target = hdTargetSize(source.width, source.height, size);
    // PNG up to 25 MP, JPEG beyond (imaging/hd-encodings.ts).
    const encoding = hdEncodingFor(target.width * target.height);
    const { extension, writeDensity } = HD_ENCODINGS[encoding];
    // The name says what it is: the source and the size (brick-wall-1a2b3c_120x240.jpg).
    const filename = job.output ?? (await this.freeName(owner, stem(image), size, extension));
    if (job.output === null) await reserveOutput(filename);
    // Recorded already (a rerun after a crash), unless the retention policy removed its file:
    // then this order makes it again, under its name, and the row is restored.
    const recorded = await this.images.find(owner.id, 'hd', filename);
    if (recorded && recorded.hdRemovedAt === null) return filename;
    // The engine reads and writes local files: a copy of the LD image, and its output.
    return withScratch(this.files, async (scratch) => {
      const output = scratch.newFile(extension);
      const upscaled = await this.engine.upscale(
        {
          sourcePath: await scratch.copyOf(owner.username, 'ld', image),
          outputPath: output.path,
          encoding,
          width: target.width,
          height: target.height,
          factors,
          seed,
          seamless: source.metadata['seamless'] === true,
          remote,
        },
        (percent) => progress(percent * 0.95),
        signal,
      );
      const written = await readImageSize(output.path);
      if (written.width !== target.width || written.height !== target.height) {
        throw new ServiceError(serverError('HD_WRONG_SIZE'));
      }
      // Cancelled meanwhile (its LD image deleted): write nothing.
      signal.throwIfAborted();
      await this.files.write(
        owner.username,
        'hd-thumbnails',
        thumbnailName(filename),
        await makeHdThumbnail(output.path),
      );
      faultPoint('hd:thumbnail-written');
      // The file carries its ordered size in cm (PNG pHYs, JPEG JFIF density) for print and
      // CAD: its header rewritten on a streamed local copy, which is moved into the store.
      const sized = scratch.newFile(extension);
      await copyWithPhysicalSize(
        output.path,
        sized.path,
        hdPrintSize(size, target.width, target.height),
        writeDensity,
      );
      const stored = await sized.putInto(owner.username, 'hd', filename);
      faultPoint('hd:file-written');
      const createdAt = new Date().toISOString();
      const series = readSeriesFace(source.metadata);
      await this.recordOrUndo(owner, image, filename, {
        ownerId: owner.id,
        kind: 'hd',
        filename,
        sourceImageId: source.id,
        width: target.width,
        height: target.height,
        bytes: stored.bytes,
        metadata: {
          ...factors,
          size,
          source_image: image,
          seed,
          engine: this.engine.name,
          ...detailMetadata(upscaled.detailWidth, target.width),
          created_at: createdAt,
          // A face of a series stays one in HD (its ZIP entry is named by face; issue 25).
          ...(series && seriesMetadata(series)),
        },
        createdAt,
      });
      faultPoint('hd:recorded');
      this.log.info({ user: owner.username, filename, job: job.id }, 'HD image generated');
      return filename;
    });
  };

  /**
   * Records the HD image; if its LD source was deleted while it ran (the record would point at
   * nothing), removes the files just written and fails the job for good with a readable text.
   */
  private async recordOrUndo(
    owner: Owner,
    image: string,
    filename: string,
    record: NewImage,
  ): Promise<void> {
    try {
      if (!(await this.images.restoreRemovedHd(record))) await this.images.insert(record);
    } catch (err) {
      if (await this.images.find(owner.id, 'ld', image)) throw err;
      for (const [area, name] of [
        ['hd', filename],
        ['hd-thumbnails', thumbnailName(filename)],
      ] as const) {
        await (await this.files.prepareRemoval(owner.username, area, name)).commit();
      }
      throw new PermanentJobError(serverError('IMAGE_GONE', image));
    }
  }

  /**
   * Cancels the HD jobs of an LD image being deleted: queued ones never start, running ones
   * stop and write nothing more.
   */
  async cancelForImage(owner: Owner, image: string): Promise<void> {
    const cancelled = await this.jobs.cancelByKeyPrefix(owner.id, 'hd', `hd:${image}:`, new Date());
    const ids = cancelled.map((job) => job.id);
    this.scheduler.abortCancelled(ids);
    for (const job of cancelled) this.notifyCancelled(job);
    if (ids.length > 0)
      this.log.info({ user: owner.username, image, jobs: ids }, 'HD jobs cancelled');
  }

  /**
   * The owner's HD jobs for the queue page, newest first, the queued ones numbered in the order
   * they will run; and whether the owner paused the queue.
   */
  async list(owner: Owner, limit = 200): Promise<HdJobsResponse> {
    const [jobs, paused] = await Promise.all([
      this.jobs.list(owner.id, 'hd', limit),
      this.jobs.isPaused(owner.id, 'hd'),
    ]);
    // The claim's order within one owner: queue_order, then arrival.
    const positions = new Map(
      jobs
        .filter((job) => job.status === 'queued')
        .sort((a, b) => a.queueOrder - b.queueOrder || a.id - b.id)
        .map((job, index) => [job.id, index + 1]),
    );
    return { jobs: jobs.map((job) => this.view(job, positions.get(job.id))), paused };
  }

  private view(job: JobRecord<'hd'>, position: number | undefined): HdJob {
    const { params } = job;
    return {
      id: job.publicId,
      image: params.image,
      size: params.size,
      status: job.status,
      percent: job.percent,
      ...(job.status === 'finished' && job.output ? { output_image: job.output } : {}),
      ...(job.error && job.status !== 'finished' ? { error: job.error } : {}),
      created_at: job.createdAt,
      ...(position !== undefined ? { position } : {}),
    };
  }

  /** Puts the owner's queued job first in their queue. */
  async moveToTop(owner: Owner, id: string): Promise<MoveResult> {
    const job = await this.jobs.moveToTop(owner.id, 'hd', id, new Date());
    if (!job) return 'unknown';
    if (job.status !== 'queued') return 'not-queued';
    this.log.info({ user: owner.username, job: job.id }, 'HD job moved to the top');
    return 'moved';
  }

  /** Holds back the owner's queued jobs; a running one finishes. */
  async pause(owner: Owner): Promise<void> {
    await this.jobs.pause(owner.id, 'hd', new Date());
    this.log.info({ user: owner.username }, 'HD queue paused');
  }

  /** Lets the owner's queued jobs run again, starting one now if the runner has room. */
  async resume(owner: Owner): Promise<void> {
    await this.jobs.resume(owner.id, 'hd');
    this.scheduler.wake('hd');
    this.log.info({ user: owner.username }, 'HD queue resumed');
  }

  async cancel(owner: Owner, id: string): Promise<CancelResult> {
    const job = await this.jobs.cancel(owner.id, 'hd', id, new Date());
    if (!job) return 'unknown';
    if (job.status !== 'cancelled') return 'not-queued';
    this.notifyCancelled(job);
    this.log.info({ user: owner.username, job: job.id }, 'HD job cancelled');
    return 'cancelled';
  }

  private async freeName(
    owner: Owner,
    base: string,
    size: string,
    extension: string,
  ): Promise<string> {
    let name = `${base}_${size}.${extension}`;
    for (let n = 2; await this.files.stat(owner.username, 'hd', name); n++) {
      name = `${base}_${size}-${n}.${extension}`;
    }
    return name;
  }
}

/**
 * The HD record's honest-detail entry (issue 26): how wide the engine's generated detail is, a
 * whole number of pixels no wider than the file; nothing where the engine could not tell.
 */
function detailMetadata(detailWidth: number | undefined, width: number): Record<string, number> {
  if (detailWidth === undefined || !Number.isFinite(detailWidth) || detailWidth <= 0) return {};
  return { [HD_DETAIL_WIDTH_KEY]: Math.min(Math.round(detailWidth), width) };
}
