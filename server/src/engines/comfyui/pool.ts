/**
 * The ComfyUI servers of COMFYUI_URLS and which one takes the next job: the least busy by its
 * own queue (GET /prompt: exec_info.queue_remaining, asked afresh at each pick) plus the jobs
 * Tessera has given it that are not queued there yet. A server that fails (does not answer,
 * answers with errors, drops the websocket) is left out, checked again after a pause that
 * doubles with each failure (1 s up to 15 s by default: COMFYUI_PROBE_BACKOFF_MS and _MAX_MS),
 * and back in as soon as it answers. A server whose prompts keep failing while running
 * (`failingAfter` in a row: a broken model file fails every job there) is `failing`: left out
 * for `failingPauseMs` (COMFYUI_FAILING_PAUSE_MS), then given jobs on trial; a prompt that
 * succeeds there ends it, one more failure brings it back.
 */
import type { EngineHealth, EngineServerHealth } from '../engine.js';
import { missingFor, type TemplateNeeds } from './capabilities.js';
import type { ComfyClient } from './client.js';
import { ComfyServerError } from './errors.js';
import {
  Member,
  POOL_DEFAULTS,
  type PoolChange,
  type PoolOptions,
  type ServerState,
} from './pool-member.js';

export type { PoolChange, PoolOptions, ServerState } from './pool-member.js';

/** One job's hold on a server, from pick to end. */
export interface Lease {
  readonly client: ComfyClient;
  /** ComfyUI queued the job's prompt: from now on the server's own queue counts it. */
  queued(promptId: string): void;
  /** The server failed the job: leave it out for a while. */
  fail(error: Error): void;
  /**
   * The job's workflow failed on the server (ComfyUI refused it or it failed while running): ask
   * the server again what it has before its next job, so that a model removed since the last
   * check takes it out instead of failing the retry too.
   */
  suspect(): void;
  /** The prompt failed while running (`execution_error`): counted towards `failing`. */
  runFailed(error: Error): void;
  /** The prompt ran to its end: the server's run-time failures are over. */
  succeeded(): void;
  /** The job is over on this server (call once, after fail too). */
  release(): void;
}

export class NoServerAvailableError extends Error {
  override name = 'NoServerAvailableError';

  /** Some server is only down (not lacking models, not failing): it may answer again soon. */
  constructor(
    message: string,
    readonly mayComeBack: boolean,
  ) {
    super(message);
  }
}

export class ServerPool {
  private readonly members: Member[];
  private readonly options: Required<PoolOptions>;
  private picks = 0;
  private closed = false;
  private readonly listeners = new Set<(change: PoolChange) => void>();

  /** `needs`: what the templates need of each server (unset: not checked). */
  constructor(
    clients: ComfyClient[],
    options: PoolOptions = {},
    private readonly needs?: TemplateNeeds,
  ) {
    if (clients.length === 0) throw new Error('The ComfyUI engine needs at least one server URL');
    this.members = clients.map((client) => new Member(client));
    this.options = { ...POOL_DEFAULTS, ...options };
  }

  /** Tells `listener` of every change of a server's state; returns the unsubscribe. */
  onChange(listener: (change: PoolChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Resolves when a server comes up (or is due to be asked again), or after `ms`; rejects when
   * `signal` aborts. What a job waiting out an outage waits for.
   */
  whenServerMayAnswer(signal: AbortSignal, ms: number): Promise<void> {
    signal.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        unsubscribe();
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        done();
        reject(signal.reason as Error);
      };
      const timer = setTimeout(
        () => {
          done();
          resolve();
        },
        Math.max(0, ms),
      );
      timer.unref();
      const unsubscribe = this.onChange((change) => {
        if (change.state !== 'up') return;
        done();
        resolve();
      });
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Checks every server now (at start): the log and /api/health know at once what each lacks. */
  async checkAll(): Promise<void> {
    await Promise.all(this.members.map((m) => this.probe(m)));
  }

  /**
   * The least busy server that answers now. Servers left out are asked again once their pause is
   * over, and all of them when none of the others answers: the job fails only if none does.
   */
  async acquire(signal: AbortSignal): Promise<Lease> {
    signal.throwIfAborted();
    const now = Date.now();
    // A failing server sits out its pause even when nothing else answers: it would fail the job.
    const candidates = this.members.filter((m) => !m.benched(now));
    const due = candidates.filter((m) => m.state === 'up' || m.due(now));
    const asked = due.length > 0 ? due : candidates;
    let ready = await this.answering(asked, signal);
    if (ready.length === 0 && asked.length < candidates.length) {
      // Those in use just failed too: ask the ones left out rather than fail the job.
      ready = await this.answering(
        candidates.filter((m) => !asked.includes(m)),
        signal,
      );
    }
    if (ready.length === 0) {
      const cannot = this.members.some((m) => m.state === 'incomplete' || m.state === 'failing');
      throw new NoServerAvailableError(
        `${cannot ? 'No ComfyUI server can take the job' : 'No ComfyUI server answers'}: ${this.members
          .map(
            (m) =>
              `${m.client.displayUrl} (${
                m.state === 'incomplete'
                  ? `lacks ${m.missing.join(', ')}`
                  : m.state === 'failing'
                    ? `failing: ${m.lastError ?? 'its prompts fail'}`
                    : (m.lastError ?? 'not answering')
              })`,
          )
          .join('; ')}`,
        this.members.some((m) => (m.state === 'down' || m.state === 'checking') && m.unreachable),
      );
    }
    const member = ready.reduce((best, m) =>
      m.load < best.load || (m.load === best.load && m.pickedAt < best.pickedAt) ? m : best,
    );
    return this.lease(member);
  }

  /**
   * A lease on the server of this URL if it is one of the pool's and answers now (to pick up a
   * prompt queued there before a restart); undefined otherwise.
   */
  async acquireServer(url: string, signal: AbortSignal): Promise<Lease | undefined> {
    const member = this.members.find((m) => m.client.displayUrl === url);
    if (!member) return undefined;
    try {
      await member.client.queueRemaining(signal, this.options.probeTimeoutMs);
    } catch (error) {
      if (signal.aborted) throw error;
      return undefined;
    }
    return this.lease(member);
  }

  private lease(member: Member): Lease {
    member.active++;
    member.pickedAt = ++this.picks;
    let promptId: string | undefined;
    let released = false;
    return {
      client: member.client,
      queued: (id) => {
        promptId = id;
        member.queued.add(id);
      },
      fail: (error) => this.markDown(member, error),
      suspect: () => {
        member.needsCheckedAt = undefined;
      },
      runFailed: (error) => {
        member.runFailures++;
        if (member.runFailures >= this.options.failingAfter) this.markFailing(member, error);
      },
      succeeded: () => {
        member.runFailures = 0;
      },
      release: () => {
        if (released) return;
        released = true;
        member.active--;
        if (promptId !== undefined) member.queued.delete(promptId);
      },
    };
  }

  /** Whether some server (other than `except`'s) is up now, as last seen, not asked afresh. */
  anyUp(except?: ComfyClient): boolean {
    return this.members.some((m) => m.state === 'up' && m.client !== except);
  }

  /** Each server's state for GET /api/health; servers in use or due are asked afresh first. */
  async health(): Promise<EngineHealth> {
    const now = Date.now();
    await Promise.all(
      this.members.filter((m) => m.state === 'up' || m.due(now)).map((m) => this.probe(m)),
    );
    const servers: EngineServerHealth[] = this.members.map((m) => ({
      url: m.client.displayUrl,
      state: m.state,
      missing: m.missing,
      version: m.version,
      queueRemaining: m.queueRemaining,
      activeJobs: m.active,
      lastError: m.lastError,
      lastErrorAt: m.lastErrorAt?.toISOString() ?? null,
      lastCheckedAt: m.lastCheckedAt?.toISOString() ?? null,
      nextCheckAt: m.state === 'up' ? null : (m.nextCheckAt?.toISOString() ?? null),
    }));
    return { ok: servers.some((s) => s.state === 'up'), servers };
  }

  /** Each server's state as last seen, without asking anyone (read at every metrics scrape). */
  states(): ServerState[] {
    return this.members.map((m) => m.state);
  }

  /** Stops the timers of the pending checks. */
  close(): void {
    this.closed = true;
    for (const m of this.members) clearTimeout(m.timer);
  }

  /** The members that answer a probe now. */
  private async answering(members: Member[], signal: AbortSignal): Promise<Member[]> {
    const answers = await raceAbort(Promise.all(members.map((m) => this.probe(m))), signal);
    return members.filter((_, i) => answers[i]);
  }

  /**
   * Asks the server for its queue, and (first, after a failure, and every recheckNeedsMs) for its
   * node types and models; true if it answered and lacks nothing (and it is in again).
   */
  private probe(member: Member): Promise<boolean> {
    if (member.probing) return member.probing;
    const wasUp = member.state === 'up';
    const wasFailing = member.state === 'failing';
    if (member.state !== 'up') member.state = 'checking';
    const check = async (): Promise<boolean> => {
      try {
        member.queueRemaining = await member.client.queueRemaining(
          undefined,
          this.options.probeTimeoutMs,
        );
        const stale =
          member.needsCheckedAt === undefined ||
          Date.now() - member.needsCheckedAt >= this.options.recheckNeedsMs;
        if (this.needs && (!wasUp || stale)) await this.checkNeeds(member, this.needs);
        member.lastCheckedAt = new Date();
        if (member.missing.length > 0) {
          this.markIncomplete(member);
          return false;
        }
        if (wasFailing) {
          // On trial: one more failing prompt takes it out again at once.
          member.runFailures = Math.min(member.runFailures, this.options.failingAfter - 1);
        }
        member.failures = 0;
        member.nextCheckAt = null;
        clearTimeout(member.timer);
        if (!wasUp) this.setState(member, 'up');
        return true;
      } catch (error) {
        member.lastCheckedAt = new Date();
        this.markDown(member, error instanceof Error ? error : new Error(String(error)));
        return false;
      } finally {
        member.probing = undefined;
      }
    };
    member.probing = check();
    return member.probing;
  }

  /** GET /object_info (and /system_stats for the version): what the server lacks. */
  private async checkNeeds(member: Member, needs: TemplateNeeds): Promise<void> {
    const [info, stats] = await Promise.all([
      member.client.objectInfo(),
      member.client.systemStats().catch(() => undefined),
    ]);
    member.version = stats?.system.comfyui_version ?? member.version;
    member.missing = missingFor(info, needs);
    member.needsCheckedAt = Date.now();
  }

  /** Answers but lacks what the templates need: no jobs; checked again after the longest pause. */
  private markIncomplete(member: Member): void {
    const pause = this.options.recheckIncompleteMs;
    member.nextCheckAt = new Date(Date.now() + pause);
    this.setState(member, 'incomplete', pause);
    this.schedule(member, pause);
  }

  /** Its prompts keep failing while running: no jobs until its pause is over. */
  private markFailing(member: Member, error: Error): void {
    const pause = this.options.failingPauseMs;
    const now = new Date();
    member.lastError = error.message;
    member.lastErrorAt = now;
    member.nextCheckAt = new Date(now.getTime() + pause);
    this.setState(member, 'failing', pause);
    this.schedule(member, pause);
  }

  private markDown(member: Member, error: Error): void {
    member.failures++;
    // Not reached (rather than refused, as by a proxy's 401): it may answer again by itself.
    member.unreachable = error instanceof ComfyServerError;
    member.lastError = error.message;
    const now = new Date();
    member.lastErrorAt = now;
    const pause = Math.min(
      this.options.maxRetryAfterMs,
      this.options.retryAfterMs * 2 ** (member.failures - 1),
    );
    member.nextCheckAt = new Date(now.getTime() + pause);
    this.setState(member, 'down', pause);
    this.schedule(member, pause);
  }

  private setState(member: Member, state: Member['state'], pause?: number): void {
    member.state = state;
    const change: PoolChange = {
      url: member.client.displayUrl,
      state,
      lastError: member.lastError,
      ...(pause !== undefined && { pause }),
    };
    for (const listener of this.listeners) listener(change);
  }

  private schedule(member: Member, pause: number): void {
    clearTimeout(member.timer);
    if (this.closed) return;
    member.timer = setTimeout(() => {
      member.timer = undefined;
      const leftOut = ['down', 'incomplete', 'failing'].includes(member.state);
      if (leftOut && !this.closed) void this.probe(member);
    }, pause);
    member.timer.unref();
  }
}

/** `promise`, or the abort reason as soon as `signal` aborts. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
