import { randomUUID } from 'node:crypto';
import {
  errorText,
  PRINT_FILE_EXTENSION,
  serverError,
  type PrintEstimate,
  type PrintFile,
  type PrintFilesResponse,
  type PrintOrder,
  type PrintProfilesResponse,
} from '@tessera/contract';
import type { Logger } from 'pino';
import { withScratch, type FileStore } from '../files/file-store.js';
import type { InstalledProfile, PrintProfiles } from '../imaging/print/profiles.js';
import type { PrintRenderer } from '../imaging/print/renderer.js';
import type { PhysicalSize } from '../imaging/physical-size.js';
import type { JobRecord } from '../jobs/job.js';
import { QueueFullError, type OwnerQueue } from '../jobs/queue.js';
import { PermanentJobError, type JobHandler, type JobScheduler } from '../jobs/runner.js';
import { faultPoint } from '../runtime/faults.js';
import type { ImageRecord, ImageRepository } from '../store/images.js';
import type { PrintFileRecord, PrintFileRepository } from '../store/print-files.js';
import type { Owner } from '../owner.js';
import {
  dedupeKey,
  fileView,
  jobView,
  printFileName,
  printKeyPrefix,
  printSizeOf,
  settingsOf,
} from './print-file-views.js';

export { printFileName } from './print-file-views.js';

/** A refusal an HTTP route sends as it is: the status and the contract's text. */
export interface PrintRefusal {
  ok: false;
  status: 400 | 404 | 409 | 429;
  error: string;
}

/** A service answer: the value, or the refusal. */
export type PrintResult<T> = { ok: true; value: T } | PrintRefusal;

/** How many of the owner's latest print jobs are searched for an image's files under way. */
const RECENT_JOBS = 200;

/**
 * Print files of HD images (issue 26, part 1): lists the colour profiles, estimates a file's
 * size, orders a file as a `print` job, makes it (the render streams, in a worker thread), keeps
 * it in the owner's `print` area with its row, lists an image's files with their jobs, and
 * removes them with the image.
 */
export class PrintFileService {
  constructor(
    private readonly images: ImageRepository,
    private readonly printFiles: PrintFileRepository,
    private readonly files: FileStore,
    private readonly jobs: OwnerQueue,
    private readonly scheduler: JobScheduler,
    private readonly profiles: PrintProfiles,
    private readonly renderer: PrintRenderer,
    private readonly log: Logger,
  ) {}

  /** sRGB and the operator's profiles, as the dialog lists them. */
  async listProfiles(): Promise<PrintProfilesResponse> {
    const profiles = await this.profiles.list();
    return { profiles: profiles.map(({ id, name, colourSpace }) => ({ id, name, colourSpace })) };
  }

  /** The owner's HD image, its print size and the profile an order names, or the refusal. */
  private async checked(
    owner: Owner,
    order: PrintOrder,
  ): Promise<
    PrintRefusal | { ok: true; image: ImageRecord; print: PhysicalSize; profile: InstalledProfile }
  > {
    const found = await this.images.find(owner.id, 'hd', order.image);
    // An HD whose file the retention policy removed has nothing to print until ordered again.
    const image = found?.hdRemovedAt === null ? found : undefined;
    const print = image && printSizeOf(image);
    if (!image || !print) {
      return { ok: false, status: 404, error: errorText('ORDERED_IMAGE_NOT_FOUND', order.image) };
    }
    const profile = await this.profiles.find(order.profile);
    if (!profile) {
      return { ok: false, status: 400, error: errorText('PRINT_PROFILE_UNKNOWN', order.profile) };
    }
    return { ok: true, image, print, profile };
  }

  /** The file's pixels and bytes before it is made: exact pixels, bytes from a sample. */
  async estimate(owner: Owner, order: PrintOrder): Promise<PrintResult<PrintEstimate>> {
    const checked = await this.checked(owner, order);
    if (!checked.ok) return checked;
    const { image, print, profile } = checked;
    const estimate = await withScratch(this.files, async (scratch) =>
      this.renderer.estimate({
        ...settingsOf(order),
        sourcePath: await scratch.copyOf(owner.username, 'hd', image.filename),
        print,
        colourSpace: profile.colourSpace,
        ...(profile.path !== undefined && { profilePath: profile.path }),
      }),
    );
    return { ok: true, value: estimate };
  }

  /** Queues the print file; the same image with the same settings is refused while under way. */
  async order(owner: Owner, order: PrintOrder): Promise<PrintResult<PrintFile>> {
    const checked = await this.checked(owner, order);
    if (!checked.ok) return checked;
    const settings = settingsOf(order);
    let job: JobRecord<'print'> | undefined;
    try {
      job = await this.scheduler.enqueue({
        publicId: randomUUID(),
        ownerId: owner.id,
        kind: 'print',
        params: { owner, image: checked.image.filename, settings },
        dedupeKey: dedupeKey(checked.image.filename, settings),
      });
    } catch (err) {
      if (err instanceof QueueFullError) {
        return { ok: false, status: 429, error: errorText('PRINT_QUEUE_FULL', err.limit) };
      }
      throw err;
    }
    if (!job) return { ok: false, status: 409, error: errorText('PRINT_ALREADY_ORDERED') };
    this.log.info({ user: owner.username, image: order.image, settings }, 'print file ordered');
    return { ok: true, value: jobView(job, checked.print) };
  }

  /** The HD image's print files, newest first: those made, and the jobs under way or failed. */
  async list(owner: Owner, image: string): Promise<PrintResult<PrintFilesResponse>> {
    const record = await this.images.find(owner.id, 'hd', image);
    const print = record && printSizeOf(record);
    if (!record || !print) {
      return { ok: false, status: 404, error: errorText('ORDERED_IMAGE_NOT_FOUND', image) };
    }
    const made = await this.printFiles.ofImage(record.id);
    const madeBy = new Set(made.map((file) => file.jobId));
    const underWay = (await this.jobs.list(owner.id, 'print', RECENT_JOBS)).filter(
      (job) => job.params.image === image && job.status !== 'finished' && !madeBy.has(job.publicId),
    );
    const files = [
      ...made.map((file) => fileView(file, image)),
      ...underWay.map((job) => jobView(job, print)),
    ].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    return { ok: true, value: { files } };
  }

  /**
   * The job handler: render in a scratch folder (the HD copied there from any store) → the file
   * into the `print` area → its row. A rerun after a crash writes the same name again and finds
   * the row if the crash came after it; an image deleted meanwhile leaves nothing behind.
   */
  readonly runPrint: JobHandler<'print'> = async (job, { progress, signal, reserveOutput }) => {
    const { owner, image, settings } = job.params;
    const record = await this.images.find(owner.id, 'hd', image);
    const print = record && printSizeOf(record);
    if (!record || !print) throw new PermanentJobError(serverError('IMAGE_GONE', image));
    const profile = await this.profiles.find(settings.profile);
    if (!profile) {
      throw new PermanentJobError(serverError('PRINT_PROFILE_UNKNOWN', settings.profile));
    }
    const filename = job.output ?? printFileName(image, settings);
    if (job.output === null) await reserveOutput(filename);
    if ((await this.printFiles.find(owner.id, filename))?.jobId === job.publicId) return filename;
    const bleed = (await this.isSeamless(owner, record)) ? 'wrap' : 'mirror';
    return withScratch(this.files, async (scratch) => {
      const output = scratch.newFile(PRINT_FILE_EXTENSION);
      const made = await this.renderer.render(
        {
          ...settingsOf(settings),
          sourcePath: await scratch.copyOf(owner.username, 'hd', image),
          outputPath: output.path,
          print,
          bleed,
          colourSpace: profile.colourSpace,
          ...(profile.path !== undefined && { profilePath: profile.path }),
        },
        { onProgress: (percent) => progress(percent * 0.98), signal },
      );
      // Cancelled meanwhile (its HD image deleted): write nothing.
      signal.throwIfAborted();
      const stored = await output.putInto(owner.username, 'print', filename);
      faultPoint('print:file-written');
      await this.recordOrUndo(owner, image, {
        ownerId: owner.id,
        imageId: record.id,
        jobId: job.publicId,
        settings: settingsOf(settings),
        filename,
        bytes: stored.bytes,
        width: made.width,
        height: made.height,
        createdAt: new Date().toISOString(),
      });
      faultPoint('print:recorded');
      this.log.info(
        { user: owner.username, image, filename, bleed, bytes: stored.bytes, job: job.id },
        'print file made',
      );
      return filename;
    });
  };

  /** Records the file; if its HD image went meanwhile, removes the file and fails for good. */
  private async recordOrUndo(owner: Owner, image: string, file: PrintFileRecord): Promise<void> {
    try {
      await this.printFiles.record(file);
    } catch (err) {
      if (await this.images.find(owner.id, 'hd', image)) throw err;
      await this.removeFile(owner, file.filename);
      throw new PermanentJobError(serverError('IMAGE_GONE', image));
    }
  }

  private async removeFile(owner: Owner, filename: string): Promise<void> {
    await (await this.files.prepareRemoval(owner.username, 'print', filename)).commit();
  }

  /** An HD image is seamless when its LD source is (Generate's Seamless option). */
  private async isSeamless(owner: Owner, image: ImageRecord): Promise<boolean> {
    const source = image.metadata['source_image'];
    if (typeof source !== 'string') return false;
    const ld = await this.images.find(owner.id, 'ld', source);
    return ld?.metadata['seamless'] === true;
  }

  /**
   * An HD image is being deleted: its print jobs stop (a running one writes nothing more) and
   * its print files go. The rows go with the image's row.
   */
  readonly removeFor = async (owner: Owner, image: ImageRecord): Promise<void> => {
    if (image.kind !== 'hd') return;
    const prefix = printKeyPrefix(image.filename);
    const cancelled = await this.jobs.cancelByKeyPrefix(owner.id, 'print', prefix, new Date());
    this.scheduler.abortCancelled(cancelled.map((job) => job.id));
    for (const file of await this.printFiles.ofImage(image.id)) {
      await this.removeFile(owner, file.filename);
    }
  };
}
