import type { Logger } from 'pino';
import type { CredentialChange, CredentialChangeRepository } from '../store/credential-changes.js';

export const CREDENTIALS_POLL_MS = 1000;
/** Changes older than this are forgotten at start: every running server has seen them. */
const KEEP_CHANGES_MS = 24 * 60 * 60 * 1000;

/**
 * What this process does when a user's password changed or they were disabled or removed: ends
 * their connections whose password was checked before `changedAt`, forgets their owner entry.
 */
export type AccountChanged = (username: string, changedAt: Date) => void;

/**
 * Tells this process of a user whose password changed or who was disabled or removed, whichever
 * process made the change (`npm run users` runs beside the server on the same database): it
 * reads the new rows of credential_changes every second, an indexed query that costs next to
 * nothing.
 */
export class CredentialsWatcher {
  private seen = 0;
  private previous: CredentialChange[] = [];
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly changes: CredentialChangeRepository,
    private readonly accountChanged: AccountChanged,
    private readonly log: Logger,
    private readonly intervalMs = CREDENTIALS_POLL_MS,
  ) {}

  async start(): Promise<void> {
    this.seen = await this.changes.latest();
    await this.changes.removeBefore(new Date(Date.now() - KEEP_CHANGES_MS));
    this.timer = setInterval(() => void this.poll(), this.intervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const changed = await this.changes.since(this.seen);
      this.seen = changed.at(-1)?.seq ?? this.seen;
      // The previous round's changes once more: a login that read the old password just before
      // the change may have registered its connection only after that round.
      for (const change of [...this.previous, ...changed]) {
        this.accountChanged(change.username, change.changedAt);
      }
      if (changed.length > 0) {
        this.log.info({ usernames: changed.map((c) => c.username) }, 'credentials changed');
      }
      this.previous = changed;
    } catch (err) {
      this.log.warn({ err }, 'credential changes not read');
    } finally {
      this.polling = false;
    }
  }
}
