import type { Logger } from 'pino';
import type { FileArea, FileStore, InterruptedRemoval } from '../files/file-store.js';
import type { ImageKind, ImageRepository } from '../store/images.js';
import type { OwnerQueue } from '../jobs/queue.js';
import type { UserRepository } from '../store/users.js';
import type { Owner } from '../owner.js';
import { thumbnailName, type ImageService } from './images.js';

const KIND_OF_AREA: Partial<Record<FileArea, { kind: ImageKind; thumbnail: boolean }>> = {
  ld: { kind: 'ld', thumbnail: false },
  hd: { kind: 'hd', thumbnail: false },
  'ld-thumbnails': { kind: 'ld', thumbnail: true },
  'hd-thumbnails': { kind: 'hd', thumbnail: true },
};

export interface RecoveryReport {
  temporaryFiles: number;
  removalsFinished: number;
  removalsUndone: number;
  ldIndexed: number;
  rowsWithoutFiles: number;
  filesWithoutRows: number;
  thumbnailsWithoutImages: number;
}

/**
 * The start-up reconciliation of docs/reliability.md: whatever step of the commit protocol a
 * crash interrupted, afterwards every file has its row, every row its files, and no temporary
 * or half-removed file is left. Runs before the job runner starts, so the jobs a crash left
 * running rerun on a tidy store and reuse the output names they had reserved.
 */
export class RecoveryService {
  constructor(
    private readonly users: UserRepository,
    private readonly images: ImageRepository,
    private readonly imageService: ImageService,
    private readonly jobs: OwnerQueue,
    private readonly files: FileStore,
    private readonly log: Logger,
  ) {}

  async run(): Promise<RecoveryReport> {
    const report: RecoveryReport = {
      temporaryFiles: 0,
      removalsFinished: 0,
      removalsUndone: 0,
      ldIndexed: 0,
      rowsWithoutFiles: 0,
      filesWithoutRows: 0,
      thumbnailsWithoutImages: 0,
    };
    for (const user of await this.users.list()) {
      await this.recover({ id: user.id, username: user.username }, report);
    }
    const repaired = Object.values(report).some((count) => count > 0);
    if (repaired) this.log.warn(report, 'start-up reconciliation repaired what a crash left');
    return report;
  }

  private async recover(owner: Owner, report: RecoveryReport): Promise<void> {
    report.temporaryFiles += await this.files.clearTemporary(owner.username);
    for (const removal of await this.files.interruptedRemovals(owner.username)) {
      if (await this.undoes(owner, removal)) {
        await removal.rollback();
        report.removalsUndone++;
      } else {
        await removal.commit();
        report.removalsFinished++;
      }
    }
    // LD: a file without a row is indexed (it carries its metadata), a row without a file goes.
    const ld = await this.imageService.refresh(owner, 'ld');
    report.ldIndexed += ld.added;
    report.rowsWithoutFiles += ld.removed;
    await this.reconcileHd(owner, report);
    for (const kind of ['ld', 'hd'] as const) {
      report.thumbnailsWithoutImages += await this.removeOrphanThumbnails(owner, kind);
    }
  }

  /**
   * A removal is undone when its image's row still exists: the crash came before the row was
   * deleted, so the delete did not happen (its command was never answered) and the file returns.
   */
  private async undoes(owner: Owner, removal: InterruptedRemoval): Promise<boolean> {
    const place = KIND_OF_AREA[removal.area];
    if (!place) return false;
    const filename = place.thumbnail ? removal.name.replace(/\.webp$/, '') : removal.name;
    const row = await this.images.find(owner.id, place.kind, filename);
    const replaced = await this.files.stat(owner.username, removal.area, removal.name);
    return row !== undefined && replaced === undefined;
  }

  /**
   * HD: a row without its file goes (but for those the retention policy removed: `filenames`
   * leaves them out); a file without a row is the output of a job that crashed
   * before recording it. A live job that reserved the name will write and record it again;
   * otherwise the file is removed (it has no source or size to index it by).
   */
  private async reconcileHd(owner: Owner, report: RecoveryReport): Promise<void> {
    const [files, known, reserved] = await Promise.all([
      this.files.list(owner.username, 'hd'),
      this.images.filenames(owner.id, 'hd'),
      this.jobs.liveOutputs(owner.id),
    ]);
    const present = new Set(files.map((file) => file.name));
    const vanished = [...known].filter(([name]) => !present.has(name)).map(([, id]) => id);
    report.rowsWithoutFiles += await this.images.remove(owner.id, vanished);
    for (const file of files) {
      if (known.has(file.name) || reserved.has(file.name)) continue;
      await (await this.files.prepareRemoval(owner.username, 'hd', file.name)).commit();
      report.filesWithoutRows++;
    }
  }

  private async removeOrphanThumbnails(owner: Owner, kind: ImageKind): Promise<number> {
    const area = kind === 'ld' ? 'ld-thumbnails' : 'hd-thumbnails';
    const [thumbnails, images, removedByPolicy] = await Promise.all([
      this.files.list(owner.username, area),
      this.files.list(owner.username, kind),
      // An HD the retention policy removed keeps its thumbnail for the gallery.
      kind === 'hd' ? this.images.removedHdFilenames(owner.id) : [],
    ]);
    const expected = new Set([...images.map((i) => i.name), ...removedByPolicy].map(thumbnailName));
    let removed = 0;
    for (const thumbnail of thumbnails) {
      if (expected.has(thumbnail.name)) continue;
      await (await this.files.prepareRemoval(owner.username, area, thumbnail.name)).commit();
      removed++;
    }
    return removed;
  }
}
