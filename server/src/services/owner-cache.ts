import type { Owner } from '../owner.js';

/** Owners kept at most: past it the cache starts afresh (one lookup each to fill again). */
const MAX_OWNERS = 10_000;

/**
 * The owners that MQTT commands name, kept after their first lookup: every command looks its
 * user up, and that read was the largest part of a small command's work (issue 28). Only owners
 * are kept, never a miss, so a user created elsewhere counts at once. `forget` must follow every
 * change that ends or replaces an owner (disable, retire, remove): the account service calls it
 * for its own changes, the credentials watcher for other processes' (within its poll).
 */
export class OwnerCache {
  private readonly known = new Map<string, Owner>();
  /** Raised by each `forget`: a lookup that a forget overtook does not keep what it read. */
  private generation = 0;

  constructor(private readonly lookUp: (username: string) => Promise<Owner | undefined>) {}

  async owner(username: string): Promise<Owner | undefined> {
    const kept = this.known.get(username);
    if (kept) return kept;
    const generation = this.generation;
    const owner = await this.lookUp(username);
    if (owner && generation === this.generation) {
      if (this.known.size >= MAX_OWNERS) this.known.clear();
      this.known.set(username, owner);
    }
    return owner;
  }

  forget(username: string): void {
    this.generation++;
    this.known.delete(username);
  }
}
