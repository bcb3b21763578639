/**
 * The ComfyUI servers of COMFYUI_URLS and which one takes the next job: the least busy by its
 * own queue (GET /prompt: exec_info.queue_remaining, asked afresh at each pick) plus the jobs
 * Tessera has given it that are not queued there yet. A server that fails (does not answer,
 * answers with errors, drops the websocket) is left out, checked again after a pause that
 * doubles with each failure (5 s up to 1 min by default), and back in as soon as it answers.
 */
import type { EngineHealth, EngineServerHealth } from '../engine.js';
import { missingFor, type TemplateNeeds } from './capabilities.js';
import type { ComfyClient } from './client.js';

export type ServerState = 'up' | 'down' | 'checking' | 'incomplete';

export interface PoolOptions {
  /** The pause before a failed server is checked again; doubles per failure up to the max. */
  retryAfterMs?: number;
  maxRetryAfterMs?: number;
  /** Deadline of the queue probe used to pick a server and to check a failed one. */
  probeTimeoutMs?: number;
  /** How often a server's node types and models are checked again while it stays up. */
  recheckNeedsMs?: number;
}

const DEFAULTS: Required<PoolOptions> = {
  retryAfterMs: 5_000,
  maxRetryAfterMs: 60_000,
  probeTimeoutMs: 3_000,
  recheckNeedsMs: 10 * 60_000,
};

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
  /** The job is over on this server (call once, after fail too). */
  release(): void;
}

class Member {
  state: ServerState = 'up';
  queueRemaining: number | null = null;
  /** Tessera's jobs on the server now. */
  active = 0;
  /** Their prompts ComfyUI has queued (so counted in queueRemaining). */
  readonly queued = new Set<string>();
  failures = 0;
  lastError: string | null = null;
  lastErrorAt: Date | null = null;
  lastCheckedAt: Date | null = null;
  nextCheckAt: Date | null = null;
  timer: NodeJS.Timeout | undefined;
  probing: Promise<boolean> | undefined;
  /** When it was last picked (a counter): ties go to the one picked longest ago. */
  pickedAt = 0;
  /** What it lacks for the templates, as its last /object_info told; when that was asked. */
  missing: string[] = [];
  needsCheckedAt: number | undefined;
  version: string | null = null;

  constructor(readonly client: ComfyClient) {}

  get load(): number {
    return Math.max(0, (this.queueRemaining ?? 0) - this.queued.size) + this.active;
  }

  due(now: number): boolean {
    return (
      (this.state === 'down' || this.state === 'incomplete') &&
      (this.nextCheckAt?.getTime() ?? 0) <= now
    );
  }
}

export class NoServerAvailableError extends Error {
  override name = 'NoServerAvailableError';
}

export class ServerPool {
  private readonly members: Member[];
  private readonly options: Required<PoolOptions>;
  private picks = 0;
  private closed = false;

  /** `needs`: what the templates need of each server (unset: not checked). */
  constructor(
    clients: ComfyClient[],
    options: PoolOptions = {},
    private readonly needs?: TemplateNeeds,
  ) {
    if (clients.length === 0) throw new Error('The ComfyUI engine needs at least one server URL');
    this.members = clients.map((client) => new Member(client));
    this.options = { ...DEFAULTS, ...options };
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
    const due = this.members.filter((m) => m.state === 'up' || m.due(now));
    const asked = due.length > 0 ? due : this.members;
    let ready = await this.answering(asked, signal);
    if (ready.length === 0 && asked.length < this.members.length) {
      // Those in use just failed too: ask the ones left out rather than fail the job.
      ready = await this.answering(
        this.members.filter((m) => !asked.includes(m)),
        signal,
      );
    }
    if (ready.length === 0) {
      const lacking = this.members.some((m) => m.state === 'incomplete');
      throw new NoServerAvailableError(
        `${lacking ? 'No ComfyUI server can take the job' : 'No ComfyUI server answers'}: ${this.members
          .map(
            (m) =>
              `${m.client.displayUrl} (${
                m.state === 'incomplete'
                  ? `lacks ${m.missing.join(', ')}`
                  : (m.lastError ?? 'not answering')
              })`,
          )
          .join('; ')}`,
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
      release: () => {
        if (released) return;
        released = true;
        member.active--;
        if (promptId !== undefined) member.queued.delete(promptId);
      },
    };
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
        member.state = 'up';
        member.failures = 0;
        member.nextCheckAt = null;
        clearTimeout(member.timer);
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
    member.state = 'incomplete';
    member.nextCheckAt = new Date(Date.now() + this.options.maxRetryAfterMs);
    this.schedule(member, this.options.maxRetryAfterMs);
  }

  private markDown(member: Member, error: Error): void {
    member.failures++;
    member.state = 'down';
    member.lastError = error.message;
    const now = new Date();
    member.lastErrorAt = now;
    const pause = Math.min(
      this.options.maxRetryAfterMs,
      this.options.retryAfterMs * 2 ** (member.failures - 1),
    );
    member.nextCheckAt = new Date(now.getTime() + pause);
    this.schedule(member, pause);
  }

  private schedule(member: Member, pause: number): void {
    clearTimeout(member.timer);
    if (this.closed) return;
    member.timer = setTimeout(() => {
      member.timer = undefined;
      if ((member.state === 'down' || member.state === 'incomplete') && !this.closed) {
        void this.probe(member);
      }
    }, pause);
    member.timer.unref();
  }
}

/** `promise`, or the abort reason as soon as `signal` aborts. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
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
