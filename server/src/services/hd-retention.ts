import type { Logger } from 'pino';
import type { FileStore } from '../files/file-store.js';
import { faultPoint } from '../runtime/faults.js';
import type { HdRetentionRepository, RetentionRunRecord } from '../store/hd-retention.js';
import { noAuditTrail, type Actor, type AuditTrail } from './audit.js';
import { previewFileName } from './material-maps.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** An HD file the policy removes: whose, which, how big, made when. */
export interface RetentionItem {
  id: number;
  owner: string;
  filename: string;
  bytes: number;
  /** Its material maps and print files, which go with it (they are remade from a new HD). */
  derivedBytes: number;
  createdAt: string;
}

/** What a run removes (a dry run: would remove) and the space it frees. */
export interface RetentionPlan {
  /** HD images made before this instant go: exactly `days` old stays. */
  cutoff: string;
  items: RetentionItem[];
  /** The HD files' bytes and those of what was made from them. */
  bytes: number;
}

/**
 * The HD retention policy (issue 29, part 4; docs/admin.md): HD files older than `days` days are
 * removed; the row stays, marked, so the LD image, the metadata and the thumbnail stay, the HD
 * gallery says the file was removed, and the HD can be ordered again. `days` 0: no policy.
 *
 * A run marks each row's removal pending, then removes the file, then marks it done: a crash
 * between the steps leaves a pending row, which the next run (its plan lists it) finishes, and
 * the gallery never shows an HD whose file is gone as present.
 */
export class HdRetentionService {
  constructor(
    private readonly repository: HdRetentionRepository,
    private readonly files: FileStore,
    readonly days: number,
    private readonly log: Logger,
    /** Every run is recorded (issue 29, part 5): by `cli`, or with no actor for the daily one. */
    private readonly audit: AuditTrail = noAuditTrail,
  ) {}

  get enabled(): boolean {
    return this.days > 0;
  }

  /** The dry run: what a run at `now` removes, and how many bytes that frees. */
  async plan(now: Date): Promise<RetentionPlan> {
    const cutoff = new Date(now.getTime() - this.days * DAY_MS).toISOString();
    if (!this.enabled) return { cutoff, items: [], bytes: 0 };
    const candidates = await this.repository.candidates(cutoff);
    const items = candidates.map(({ id, owner, filename, bytes, derivedBytes, createdAt }) => ({
      id,
      owner,
      filename,
      bytes,
      derivedBytes,
      createdAt,
    }));
    return { cutoff, items, bytes: freed(items) };
  }

  /** Removes what `plan(now)` lists; what it removed (a row ordered again meanwhile stays). */
  async run(now: Date, actor: Actor | null = null): Promise<RetentionPlan> {
    const plan = await this.plan(now);
    const removed: RetentionItem[] = [];
    for (const item of plan.items) {
      if (!(await this.repository.markPending(item.id, plan.cutoff, now.toISOString()))) continue;
      faultPoint('retention:marked');
      // Missing is fine: a rerun after a crash finds the files gone already.
      await this.removeDerived(item);
      faultPoint('retention:derived-removed');
      await this.remove(item.owner, 'hd', item.filename);
      faultPoint('retention:file-removed');
      await this.repository.markDone(item.id);
      removed.push(item);
    }
    const bytes = freed(removed);
    if (plan.items.length > 0) {
      this.log.info(
        { removed: removed.length, bytes, cutoff: plan.cutoff },
        'HD retention: files removed',
      );
    }
    await this.audit.note({
      actor,
      action: 'retention-run',
      details: { days: this.days, cutoff: plan.cutoff, removed: removed.length, bytes },
    });
    return { cutoff: plan.cutoff, items: removed, bytes };
  }

  /** The latest daily runs, newest first, for the admin screen. */
  recentRuns(limit: number): Promise<RetentionRunRecord[]> {
    return this.repository.recentRuns(limit);
  }

  /**
   * The material maps and print files made from the HD: worthless without it, as big as it, and
   * made again from a new HD. Their rows go when the removal is done (`markDone`).
   */
  private async removeDerived(item: RetentionItem): Promise<void> {
    const derived = await this.repository.derivedFiles(item.id);
    if (derived.maps.length > 0) {
      await this.remove(item.owner, 'maps', previewFileName('hd', item.filename, 'colour'));
    }
    for (const map of derived.maps) {
      await this.remove(item.owner, 'maps', map.filename);
      await this.remove(item.owner, 'maps', map.preview);
    }
    for (const print of derived.prints) await this.remove(item.owner, 'print', print);
  }

  private async remove(owner: string, area: 'hd' | 'maps' | 'print', name: string) {
    await (await this.files.prepareRemoval(owner, area, name)).commit();
  }

  /**
   * The daily run: the first process to claim the day (UTC) runs it, every other one does
   * nothing; undefined then. A claim left unfinished for `staleMs` (its process died) is taken
   * over; whatever it left pending is in the next plan anyway.
   */
  async runDaily(
    now: Date,
    holder: string,
    staleMs = DAY_MS / 4,
  ): Promise<RetentionPlan | undefined> {
    if (!this.enabled) return undefined;
    const day = now.toISOString().slice(0, 10);
    const staleBefore = new Date(now.getTime() - staleMs).toISOString();
    if (!(await this.repository.claimDay(day, holder, now.toISOString(), staleBefore))) {
      return undefined;
    }
    const result = await this.run(now);
    await this.repository.finishDay(
      day,
      holder,
      now.toISOString(),
      result.items.length,
      result.bytes,
    );
    return result;
  }
}

function freed(items: RetentionItem[]): number {
  return items.reduce((sum, item) => sum + item.bytes + item.derivedBytes, 0);
}
