/**
 * Holds commands back until the broker has acknowledged (SUBACK) the subscriptions of the current
 * connection. A command sent sooner may be answered before the broker routes the answer's topic
 * to this client, and that answer is lost. The gate shuts at every new connection, opens at its
 * SUBACK, and stays shut with an error when the broker refuses the subscriptions.
 */
export class SubscriptionGate {
  #state: { kind: 'shut' } | { kind: 'open' } | { kind: 'refused'; error: Error } = {
    kind: 'shut',
  };
  readonly #waiting = new Set<{ resolve: () => void; reject: (error: Error) => void }>();

  get isOpen(): boolean {
    return this.#state.kind === 'open';
  }

  /** Resolves once the subscriptions are acknowledged; rejects when they were refused. */
  pass(): Promise<void> {
    const state = this.#state;
    if (state.kind === 'open') return Promise.resolve();
    if (state.kind === 'refused') return Promise.reject(state.error);
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: () => {
          this.#waiting.delete(waiter);
          resolve();
        },
        reject: (error: Error) => {
          this.#waiting.delete(waiter);
          reject(error);
        },
      };
      this.#waiting.add(waiter);
    });
  }

  /** The connection was lost or a new one began: wait for its SUBACK. Waiters keep waiting. */
  shut(): void {
    this.#state = { kind: 'shut' };
  }

  /** The SUBACK arrived: everything waiting goes through, and so does everything after. */
  open(): void {
    this.#state = { kind: 'open' };
    for (const waiter of [...this.#waiting]) waiter.resolve();
  }

  /** The subscriptions were refused or can never be made: waiters and later callers fail. */
  refuse(error: Error): void {
    this.#state = { kind: 'refused', error };
    for (const waiter of [...this.#waiting]) waiter.reject(error);
  }
}
