import {
  errorText,
  formatQuotaBytes,
  overStorageQuota,
  type QuotaDefaults,
  type StorageUsage,
  type UserQuotas,
} from '@tessera/contract';
import type { Owner } from '../owner.js';
import type { QuotaRepository } from '../store/quotas.js';
import { noAuditTrail, type Actor, type AuditTrail } from './audit.js';
import { UserError } from './users.js';

/** Whether a request may store more: undefined, or the refusal's contract text. */
export interface StorageGate {
  /**
   * `incomingBytes`: an upload's size; 0 for an order whose size is unknown until it runs (it is
   * counted as one byte: refused once use reaches the quota). See contract overStorageQuota.
   */
  storageRefusal(owner: Owner, incomingBytes: number): Promise<string | undefined>;
}

/** Lets everything through: for services built without quotas (tests of other things). */
export const noStorageGate: StorageGate = { storageRefusal: () => Promise.resolve(undefined) };

/**
 * Per-user quotas (issue 29, part 3): the defaults (the configuration's until an admin sets
 * them), each user's own, and the storage check an upload, a preview or an HD order passes
 * before any work starts. The queue quotas are enforced where jobs are counted
 * (store/job-queue/claims.ts). Every change is recorded in the audit trail.
 */
export class QuotaService implements StorageGate {
  constructor(
    private readonly quotas: QuotaRepository,
    /** The configuration's defaults (STORAGE_QUOTA_GB, MAX_QUEUED_*_PER_USER). */
    private readonly configured: QuotaDefaults,
    private readonly audit: AuditTrail = noAuditTrail,
  ) {}

  async defaults(): Promise<QuotaDefaults> {
    return (await this.quotas.defaults()) ?? this.configured;
  }

  async setDefaults(next: QuotaDefaults, by: Actor): Promise<QuotaDefaults> {
    const before = await this.defaults();
    await this.quotas.setDefaults(next);
    await this.audit.note({
      actor: by,
      action: 'quota-changed',
      target: 'default',
      details: { from: before, to: next },
    });
    return next;
  }

  /** A user's own quotas; each null follows the default. */
  async setForUser(username: string, next: UserQuotas, by: Actor): Promise<void> {
    const before = await this.quotas.ofUser(username);
    if (!before || !(await this.quotas.setForUser(username, next)))
      throw UserError.of('USER_UNKNOWN', username);
    await this.audit.note({
      actor: by,
      action: 'quota-changed',
      target: username,
      details: { from: before, to: next },
    });
  }

  /** The user's storage use and the quota that applies to them (null: none). */
  async usage(owner: Owner): Promise<StorageUsage> {
    const [usedBytes, own] = await Promise.all([
      this.quotas.storageUsed(owner.id),
      this.quotas.storageQuotaOf(owner.id),
    ]);
    const quotaBytes = own ?? (await this.defaults()).storageBytes;
    return { usedBytes, quotaBytes };
  }

  async storageRefusal(owner: Owner, incomingBytes: number): Promise<string | undefined> {
    const { usedBytes, quotaBytes } = await this.usage(owner);
    return quotaBytes !== null && overStorageQuota(usedBytes, incomingBytes, quotaBytes)
      ? errorText('STORAGE_QUOTA_EXCEEDED', formatQuotaBytes(quotaBytes, 'en'))
      : undefined;
  }
}
