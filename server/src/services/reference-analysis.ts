import {
  referenceWarnings,
  type ReferenceAnalysis,
  type ReferenceFigures,
  type ReferenceWarningCode,
} from '@tessera/contract';
import type { Logger } from 'pino';
import type { Owner } from '../owner.js';

/** What the analyzer measured of one reference file. */
export interface ReferenceMeasure {
  /** The reference's size, orientation applied. */
  width: number;
  height: number;
  figures: ReferenceFigures;
  warnings: ReferenceWarningCode[];
}

/**
 * The port: measures a reference, and takes its lighting drift out, both by the builtin engine's
 * own code in a worker thread (engines/builtin/reference/). Files are local paths (an upload's
 * scratch file), checked as an upload before they get here.
 */
export interface ReferenceAnalyzer {
  analyse(path: string, signal: AbortSignal): Promise<ReferenceMeasure>;
  /** The reference as a PNG, lighting drift taken out. */
  removeLighting(path: string, signal: AbortSignal): Promise<Uint8Array>;
}

/** A refusal the routes answer with the contract's REFERENCE_CHECKS_BUSY (429). */
export class ReferenceChecksBusyError extends Error {
  constructor() {
    super('Too many reference checks at once');
    this.name = 'ReferenceChecksBusyError';
  }
}

export interface ReferenceCheckLimits {
  /** Workers running at once on this server; more wait their turn. */
  running: number;
  /** Checks of one user under way or waiting; more are refused. */
  perUser: number;
  /** Checks waiting on this server; more are refused. */
  waiting: number;
}

export const DEFAULT_REFERENCE_CHECK_LIMITS: ReferenceCheckLimits = {
  running: 2,
  perUser: 2,
  waiting: 8,
};

/**
 * Checks references at upload and removes their lighting for the preparation step (issue 27,
 * part 5). Nothing is stored: the file is the caller's scratch file. Each check is a worker's
 * time, so they are counted per user and run a few at a time.
 */
export class ReferenceAnalysisService {
  private running = 0;
  private readonly queue: (() => void)[] = [];
  private readonly perUser = new Map<number, number>();

  constructor(
    private readonly analyzer: ReferenceAnalyzer,
    private readonly log: Logger,
    private readonly limits: ReferenceCheckLimits = DEFAULT_REFERENCE_CHECK_LIMITS,
  ) {}

  /** The reference's warnings (the contract's texts) and figures. */
  async analyse(owner: Owner, path: string, signal: AbortSignal): Promise<ReferenceAnalysis> {
    const measure = await this.limited(owner, signal, () => this.analyzer.analyse(path, signal));
    this.log.info(
      { user: owner.username, warnings: measure.warnings, figures: measure.figures },
      'reference checked',
    );
    return {
      width: measure.width,
      height: measure.height,
      warnings: referenceWarnings(measure.warnings),
      figures: measure.figures,
    };
  }

  /** The reference as a PNG with its lighting drift taken out. */
  removeLighting(owner: Owner, path: string, signal: AbortSignal): Promise<Uint8Array> {
    return this.limited(owner, signal, () => this.analyzer.removeLighting(path, signal));
  }

  private async limited<T>(owner: Owner, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const mine = this.perUser.get(owner.id) ?? 0;
    const full = this.running >= this.limits.running;
    if (mine >= this.limits.perUser || (full && this.queue.length >= this.limits.waiting)) {
      throw new ReferenceChecksBusyError();
    }
    this.perUser.set(owner.id, mine + 1);
    try {
      await this.turn(signal);
      try {
        return await work();
      } finally {
        this.running--;
        this.queue.shift()?.();
      }
    } finally {
      const left = (this.perUser.get(owner.id) ?? 1) - 1;
      if (left > 0) this.perUser.set(owner.id, left);
      else this.perUser.delete(owner.id);
    }
  }

  /** Resolves once a worker slot is this caller's (counted as running); rejects on abort. */
  private turn(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (this.running < this.limits.running) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const go = () => {
        signal.removeEventListener('abort', abort);
        this.running++;
        resolve();
      };
      const abort = () => {
        const index = this.queue.indexOf(go);
        if (index >= 0) this.queue.splice(index, 1);
        reject(signal.reason as Error);
      };
      this.queue.push(go);
      signal.addEventListener('abort', abort, { once: true });
    });
  }
}
