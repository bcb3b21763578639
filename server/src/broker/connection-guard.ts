/**
 * Who holds which MQTT client id, how many connections each user has, and how many connections
 * from one address have not logged in yet. Kept apart from Aedes so the rules read in one place.
 */
export class GuardedConnection {
  /** Counted against its address until it logs in or closes. */
  pending = true;
  owner: string | undefined;
  clientId: string | undefined;
  constructor(readonly address: string) {}
}

export type ClaimResult = 'ok' | 'identifier-taken' | 'too-many-connections';

export class ConnectionGuard {
  private readonly pendingByAddress = new Map<string, number>();
  private readonly holders = new Map<string, GuardedConnection>();
  private readonly byOwner = new Map<string, Set<GuardedConnection>>();

  constructor(
    private readonly limits: { connectionsPerUser: number; unauthenticatedPerAddress: number },
  ) {}

  /** A new connection from `address`, or undefined when that address has too many not logged in. */
  open(address: string): GuardedConnection | undefined {
    const pending = this.pendingByAddress.get(address) ?? 0;
    if (pending >= this.limits.unauthenticatedPerAddress) return undefined;
    this.pendingByAddress.set(address, pending + 1);
    return new GuardedConnection(address);
  }

  /**
   * A logged-in connection claims its client id for `owner`. Another owner's live id is refused
   * (no takeover across users); the owner's own id is taken over (a reconnecting tab) and the
   * connection it replaces stops counting. `capped` is false for the service principal.
   */
  claim(
    connection: GuardedConnection,
    clientId: string,
    owner: string,
    capped: boolean,
  ): ClaimResult {
    const holder = this.holders.get(clientId);
    if (holder && holder !== connection && holder.owner !== owner) return 'identifier-taken';
    const replaced = holder && holder !== connection ? holder : undefined;
    const owned = this.byOwner.get(owner) ?? new Set<GuardedConnection>();
    const others = owned.size - (replaced && owned.has(replaced) ? 1 : 0);
    if (capped && others >= this.limits.connectionsPerUser) return 'too-many-connections';

    if (replaced) owned.delete(replaced);
    owned.add(connection);
    this.byOwner.set(owner, owned);
    this.holders.set(clientId, connection);
    connection.owner = owner;
    connection.clientId = clientId;
    this.settle(connection);
    return 'ok';
  }

  /** The connection is gone (closed, refused or timed out). */
  close(connection: GuardedConnection): void {
    this.settle(connection);
    if (connection.clientId !== undefined && this.holders.get(connection.clientId) === connection)
      this.holders.delete(connection.clientId);
    if (connection.owner !== undefined) {
      const owned = this.byOwner.get(connection.owner);
      owned?.delete(connection);
      if (owned?.size === 0) this.byOwner.delete(connection.owner);
    }
  }

  /** Live connections of an owner (for tests and logs). */
  connectionsOf(owner: string): number {
    return this.byOwner.get(owner)?.size ?? 0;
  }

  private settle(connection: GuardedConnection): void {
    if (!connection.pending) return;
    connection.pending = false;
    const left = (this.pendingByAddress.get(connection.address) ?? 1) - 1;
    if (left > 0) this.pendingByAddress.set(connection.address, left);
    else this.pendingByAddress.delete(connection.address);
  }
}
