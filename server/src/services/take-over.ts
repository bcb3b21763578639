import type { FileStore } from '../files/file-store.js';
import { FILE_AREAS } from '../files/places.js';
import type { Owner } from '../owner.js';
import { faultPoint } from '../runtime/faults.js';
import type { TakeOverRepository } from '../store/take-over.js';
import { planTakeOver } from './take-over-plan.js';
import type { ImagesTakeOver, TakeOverCounts } from './user-ports.js';

/**
 * An admin takes over a retired user's images (issue 29, part 2). Crash-safe in three steps: the
 * files are copied to the new owner's place (under their new names), then every row is re-owned
 * and the account removed in one transaction, then the old files go. A crash before the
 * transaction changes nothing anyone sees (a re-run plans the same names and copies again); one
 * after it leaves only the old files, which a re-run (`leftovers`) removes.
 */
export class ImageTakeOver implements ImagesTakeOver {
  constructor(
    private readonly store: TakeOverRepository,
    private readonly files: FileStore,
  ) {}

  async run(from: Owner, to: Owner): Promise<TakeOverCounts> {
    const held = await this.store.holdings(from.id);
    const plan = planTakeOver(
      from.id,
      to.id,
      held,
      await this.store.takenNames(to.id),
      await this.sizes(to.username),
      await this.sizes(from.username),
    );
    let files = 0;
    for (const area of FILE_AREAS) {
      for (const file of await this.files.list(from.username, area)) {
        const name = plan.fileName(area, file.name);
        const there = await this.files.stat(to.username, area, name);
        // The same size there: this file, copied by an interrupted run (writes are atomic).
        if (there?.bytes !== file.bytes) {
          await this.files.write(
            to.username,
            area,
            name,
            this.files.read(from.username, area, file.name),
          );
        }
        files += 1;
      }
    }
    faultPoint('take-over:copied');
    await this.store.reown(plan.reownership);
    return {
      ldImages: held.images.filter((image) => image.kind === 'ld').length,
      hdImages: held.images.filter((image) => image.kind === 'hd').length,
      renamed: plan.renamed,
      files,
    };
  }

  async leftovers(username: string): Promise<number> {
    let removed = 0;
    for (const area of FILE_AREAS) {
      for (const file of await this.files.list(username, area)) {
        await (await this.files.prepareRemoval(username, area, file.name)).commit();
        removed += 1;
      }
    }
    return removed;
  }

  /** An owner's input files and their sizes: how the plan tells a reference of theirs from ours. */
  private async sizes(username: string): Promise<Map<string, number>> {
    const listed = await this.files.list(username, 'input');
    return new Map(listed.map((file) => [file.name, file.bytes]));
  }
}
