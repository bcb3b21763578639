import { ResponseTimeoutError } from './errors';

export interface PendingRequest {
  /** The query topic the answer has to arrive on. */
  readonly topic: string;
  /** Settles the request with an answer that carries its transactionid. */
  accept(data: unknown): void;
  reject(error: Error): void;
}

interface Waiting {
  request: PendingRequest;
  timer: ReturnType<typeof setTimeout>;
}

/** Requests waiting for their answer, by transactionid; each is forgotten after `timeoutMs`. */
export class PendingRequests {
  readonly #timeoutMs: number;
  readonly #waiting = new Map<string, Waiting>();

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  get size(): number {
    return this.#waiting.size;
  }

  add(transactionid: string, request: PendingRequest): void {
    const timer = setTimeout(() => {
      this.#waiting.delete(transactionid);
      request.reject(new ResponseTimeoutError());
    }, this.#timeoutMs);
    this.#waiting.set(transactionid, { request, timer });
  }

  /** Whether a request still waits for `transactionid` (not answered, timed out or removed). */
  has(transactionid: string): boolean {
    return this.#waiting.has(transactionid);
  }

  /** Removes and returns the request waiting for `transactionid` on `topic`, if any. */
  take(transactionid: string, topic: string): PendingRequest | undefined {
    const waiting = this.#waiting.get(transactionid);
    if (waiting?.request.topic !== topic) return undefined;
    return this.remove(transactionid);
  }

  /** Removes and returns the request waiting for `transactionid`, whatever its topic. */
  remove(transactionid: string): PendingRequest | undefined {
    const waiting = this.#waiting.get(transactionid);
    if (waiting === undefined) return undefined;
    clearTimeout(waiting.timer);
    this.#waiting.delete(transactionid);
    return waiting.request;
  }

  rejectAll(error: Error): void {
    for (const transactionid of [...this.#waiting.keys()])
      this.remove(transactionid)?.reject(error);
  }
}
