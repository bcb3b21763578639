import type { AuditAction, AuditPage, AuditQuery } from '@tessera/contract';
import { auditQuerySchema } from '@tessera/contract';
import type { AuditRepository } from '../store/audit.js';

export const DEFAULT_AUDIT_RETENTION_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Where a record that could not be written is told (pino's logger, or stderr in the CLI). */
export interface AuditWarnings {
  warn(detail: object, message: string): void;
}

/** Who made a change, and from where: a signed-in user's name, or `cli` on the server's shell. */
export interface Actor {
  name: string;
  address?: string;
}

/** One thing that happened, as a service tells it. */
export interface AuditNote {
  actor: Actor | null;
  action: AuditAction;
  target?: string;
  details?: Record<string, unknown>;
  /** The address of an attempt with no actor (a failed sign-in). */
  address?: string;
}

/** Where services tell what happened (issue 29, part 5). */
export interface AuditTrail {
  /** Never throws: a change already made is not undone by a record that could not be written. */
  note(entry: AuditNote): Promise<void>;
}

export const noAuditTrail: AuditTrail = { note: () => Promise.resolve() };

/** The audit trail on the database: recorded, listed for the admin, pruned after its time. */
export class AuditLog implements AuditTrail {
  constructor(
    private readonly entries: AuditRepository,
    private readonly log: AuditWarnings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async note({ actor, action, target, details, address }: AuditNote): Promise<void> {
    try {
      await this.entries.record({
        at: this.now(),
        actor: actor?.name ?? null,
        action,
        target: target ?? null,
        details: details ?? {},
        address: actor?.address ?? address ?? null,
      });
    } catch (err) {
      this.log.warn({ err, action, target }, 'audit entry not recorded');
    }
  }

  async list(query: AuditQuery): Promise<AuditPage> {
    const { action, actor, target, from, to, before, limit } = auditQuerySchema.parse(query);
    return this.entries.list({
      limit,
      ...(action && { action }),
      ...(actor && { actor }),
      ...(target && { target }),
      ...(from && { from }),
      ...(to && { to }),
      ...(before !== undefined && { before }),
    });
  }

  /** Removes what is older than `retentionDays` before now; how many entries went. */
  async prune(retentionDays: number): Promise<number> {
    return this.entries.removeBefore(new Date(this.now().getTime() - retentionDays * DAY_MS));
  }
}

/**
 * Prunes the audit trail at start and then every day. Several processes may each prune: the
 * deletion is the same whoever runs it, so no coordination is needed.
 */
export class AuditRetention {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly audit: Pick<AuditLog, 'prune'>,
    private readonly retentionDays: number,
    private readonly log: AuditWarnings & { info(detail: object, message: string): void },
    private readonly intervalMs = DAY_MS,
  ) {}

  async start(): Promise<void> {
    await this.runOnce();
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One pruning; a failure is logged and the next day tries again. */
  async runOnce(): Promise<number> {
    try {
      const removed = await this.audit.prune(this.retentionDays);
      if (removed > 0) this.log.info({ removed, days: this.retentionDays }, 'audit trail pruned');
      return removed;
    } catch (err) {
      this.log.warn({ err }, 'audit trail not pruned');
      return 0;
    }
  }
}
