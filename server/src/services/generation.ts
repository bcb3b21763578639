import { randomBytes } from 'node:crypto';
import {
  previewMetadata,
  previewSettingsIn,
  previewSettingsOf,
  seriesMetadata,
  type PreviewRequest,
} from '@tessera/contract';
import type { Logger } from 'pino';
import type { Engine } from '../engines/engine.js';
import { withScratch, type FileStore, type ScratchFile } from '../files/file-store.js';
import type { JobKind, JobRecord, PreviewJobParams } from '../jobs/job.js';
import { QueueFullError, type OwnerQueue } from '../jobs/queue.js';
import type { JobHandler, JobScheduler } from '../jobs/runner.js';
import type { ImageRepository } from '../store/images.js';
import type { Owner } from '../owner.js';
import { recordLdImage } from './ld-recorder.js';
import {
  namesToKeepFree,
  previewOutputs,
  reservedName,
  type PreviewOutput,
} from './preview-series.js';
import { noStorageGate, type StorageGate } from './quotas.js';
import type { ReferenceService } from './references.js';

/** What became of a preview posted for the queue. */
export type EnqueueOutcome =
  | { status: 'queued' }
  | { status: 'duplicate' }
  | { status: 'queue-full'; limit: number }
  /** Past the storage quota (issue 29, part 3): the contract's text; nothing was stored. */
  | { status: 'over-quota'; error: string };

export interface GenerationStatus {
  status: JobRecord['status'];
  percent: number;
  output_image?: string;
  /** Beyond the spec, while the job runs: what it waits for (GenerationStatusResponse.notice). */
  notice?: string;
}

/** Preview (LD) generation: takes the upload, queues the job, and turns an engine run into an LD image. */
export class GenerationService {
  constructor(
    private readonly images: ImageRepository,
    private readonly files: FileStore,
    private readonly references: Pick<ReferenceService, 'keep'>,
    private readonly jobs: OwnerQueue,
    private readonly scheduler: JobScheduler,
    private readonly engine: Engine,
    private readonly log: Logger,
    private readonly quota: StorageGate = noStorageGate,
  ) {}

  /**
   * Keeps the validated upload (a scratch file, moved into the store) as the reference, or
   * reuses the owner's reference with the same bytes, and queues the job; 'duplicate' if the id
   * is live already.
   */
  async enqueuePreview(
    owner: Owner,
    request: PreviewRequest,
    upload: { file: ScratchFile; format: string; sha256: string; bytes: number },
  ): Promise<EnqueueOutcome> {
    // Before anything is kept: the upload's bytes on top of what the user stores.
    const refusal = await this.quota.storageRefusal(owner, upload.bytes);
    if (refusal) {
      this.log.info({ user: owner.username, bytes: upload.bytes }, 'preview over storage quota');
      return { status: 'over-quota', error: refusal };
    }
    const extension = upload.format === 'jpeg' ? 'jpg' : upload.format;
    const reference = await this.references.keep(owner, {
      file: upload.file,
      sha256: upload.sha256,
      newName: `${stem(request.image)}-${randomBytes(4).toString('hex')}.${extension}`,
    });
    const params: PreviewJobParams = {
      owner,
      inputFile: reference.filename,
      originalName: request.image,
      ...previewSettingsOf(request),
      // Only a series says so: a single image's stored job stays as it was.
      ...(request.faces > 1 && { faces: request.faces }),
    };
    const outcome = await this.scheduler
      .enqueue({
        publicId: request.id,
        ownerId: owner.id,
        kind: 'preview',
        params,
        dedupeKey: `preview:${request.id}`,
      })
      .then(
        (job): EnqueueOutcome => (job ? { status: 'queued' } : { status: 'duplicate' }),
        (err: unknown): EnqueueOutcome => {
          if (err instanceof QueueFullError) return { status: 'queue-full', limit: err.limit };
          throw err;
        },
      );
    // A refused job leaves its reference: another upload of the same bytes may be using it
    // already, and the library holds it once whatever happens (issue 22, part 13).
    if (outcome.status !== 'queued')
      this.log.info({ user: owner.username, reference: reference.filename }, 'preview refused');
    return outcome;
  }

  /** The owner's latest preview or HD job as the status query reports it (SPEC §7). */
  async latestStatus(owner: Owner, kind: JobKind): Promise<GenerationStatus | undefined> {
    const job = await this.jobs.latest(owner.id, kind);
    return job && statusOf(job);
  }

  /**
   * The job handler, in the commit order of docs/reliability.md: reserve the output name →
   * engine → per image: thumbnail (written, flushed, renamed) → LD file (likewise) → record. A
   * rerun after a crash reuses the reserved name, so it overwrites what the crash left instead
   * of adding, and skips what was recorded. A series (issue 25) is one engine run writing every
   * face; the faces' names follow from the reserved one (services/preview-series.ts), so a rerun
   * records each face exactly once (the engine is deterministic per seed).
   */
  readonly runPreview: JobHandler<'preview'> = async (
    job,
    { progress, signal, reserveOutput, remote },
  ) => {
    const { params } = job;
    const { owner } = params;
    const faces = params.faces ?? 1;
    const filename = job.output ?? (await this.freeName(owner, params.originalName, faces));
    if (job.output === null) await reserveOutput(filename);
    const outputs = previewOutputs(filename, faces);
    const pending: PreviewOutput[] = [];
    for (const output of outputs) {
      if (!(await this.images.find(owner.id, 'ld', output.filename))) pending.push(output);
    }
    // Recorded by an earlier attempt (or indexed by a refresh since): the work is done.
    if (pending.length === 0) return filename;
    // The engine reads and writes local files: a copy of the reference, and its outputs.
    return withScratch(this.files, async (scratch) => {
      const faceOne = scratch.newFile('png');
      const made = outputs.map((output, index) => ({
        output,
        file: index === 0 ? faceOne : scratch.newFile('png'),
      }));
      const generated = await this.engine.generate(
        {
          ...previewSettingsIn(params),
          referencePath: await scratch.copyOf(owner.username, 'input', params.inputFile),
          outputPath: faceOne.path,
          ...(faces > 1 && { seriesPaths: made.map(({ file }) => file.path) }),
          remote,
        },
        (percent) => progress(percent * 0.95),
        signal,
      );
      const createdAt = new Date().toISOString();
      const metadata = {
        input_image_path: params.inputFile,
        ...previewMetadata(params),
        ...generated.metadata,
        engine: this.engine.name,
        created_at: createdAt,
      };
      for (const { output, file } of made) {
        if (!pending.includes(output)) continue;
        await recordLdImage(this.images, this.files, {
          owner,
          filename: output.filename,
          png: await engineOutput(file, output),
          metadata: output.series ? { ...metadata, ...seriesMetadata(output.series) } : metadata,
          createdAt,
          ...(output.series && { face: output.series.face }),
        });
      }
      this.log.info(
        { user: owner.username, filename, faces, job: job.id },
        faces > 1 ? 'preview series generated' : 'preview generated',
      );
      return filename;
    });
  };

  /** A free base for the job's names (`<stem>-<hex>`): none of the names it gives is taken. */
  private async freeName(owner: Owner, originalName: string, faces: number): Promise<string> {
    let base = `${stem(originalName)}-${randomBytes(3).toString('hex')}`;
    const taken = async (name: string) => !!(await this.files.stat(owner.username, 'ld', name));
    while ((await Promise.all(namesToKeepFree(base, faces).map(taken))).some(Boolean)) {
      base = `${stem(base)}-${randomBytes(2).toString('hex')}`;
    }
    return reservedName(base, faces);
  }
}

/** The bytes the engine wrote for one output; a missing face is the engine's failure. */
async function engineOutput(file: ScratchFile, output: PreviewOutput): Promise<Buffer> {
  try {
    return await file.readBuffer();
  } catch (err) {
    const which = output.series ? `face ${output.series.face}` : 'the image';
    throw new Error(`The engine wrote no file for ${which}`, { cause: err });
  }
}

/** A file name's base, reduced to characters safe in any file system and URL. */
export function stem(fileName: string): string {
  const base = fileName.replace(/\.[^.]*$/, '');
  const safe = base
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return safe || 'texture';
}

export function statusOf(job: JobRecord): GenerationStatus {
  return {
    status: job.status,
    percent: job.percent,
    ...(job.status === 'finished' && job.output ? { output_image: job.output } : {}),
    ...(job.status === 'in_progress' && job.notice !== undefined && { notice: job.notice }),
  };
}
