import { randomBytes } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import type {
  ZipDownloadProgress,
  ZipDownloadRequest,
  ZipDownloadState,
  ZipDownloadTicket,
} from '@tessera/contract';
import type { Logger } from 'pino';
import { ZipFile } from 'yazl';
import type { FileStore } from '../files/file-store.js';
import type { ImageRepository } from '../store/images.js';
import type { Owner } from './images.js';

export const ZIP_TEXTS = {
  unknownImage: (name: string) => `No such image: ${name}`,
  tooMany: 'Too many ZIP downloads at once: wait until one has finished',
  expired: 'This download has expired or was already used: start it again',
  fileGone: (name: string) => `The image '${name}' no longer exists`,
  interrupted: 'The download stopped before the end',
  readFailed: 'An image could not be read: the download stopped',
} as const;

export interface ZipDownloadLimits {
  /** A ticket the browser never used is dropped after this long. */
  unusedMs: number;
  /** How long the outcome stays readable by the progress query once sending ended. */
  keepMs: number;
  /** Tickets one user may hold at once (waiting or sending). */
  perOwner: number;
}

export const DEFAULT_ZIP_LIMITS: ZipDownloadLimits = {
  unusedMs: 60_000,
  keepMs: 60_000,
  perOwner: 4,
};

interface Ticket {
  owner: Owner;
  kind: ZipDownloadRequest['kind'];
  names: readonly string[];
  filename: string;
  state: ZipDownloadState;
  sent: number;
  total?: number;
  error?: string;
  timer: NodeJS.Timeout;
}

/** A ZIP ready to send: its exact size, and its bytes as they are read from the files. */
export interface OpenZip {
  filename: string;
  total: number;
  stream: Readable;
  /** Called when the response closed: whether every byte went out. */
  settle(completed: boolean): void;
}

export type PrepareResult =
  { ok: true; ticket: ZipDownloadTicket } | { ok: false; status: 404 | 429; error: string };

export type OpenResult =
  { ok: true; zip: OpenZip } | { ok: false; status: 404 | 410; error: string };

/**
 * ZIP downloads of a user's images (issue 13, feature 10), in two steps so that the browser can
 * save the file itself: `prepare` checks the selection against the user's own images and hands
 * out a one-time token; `open` streams the ZIP for it straight from the files, stored (PNG and
 * JPEG do not deflate), so its size is known before the first byte and nothing is held whole in
 * memory. Tickets live in this process only: a restart drops the downloads under way.
 */
export class ZipDownloads {
  private readonly tickets = new Map<string, Ticket>();

  constructor(
    private readonly images: ImageRepository,
    private readonly files: FileStore,
    private readonly log: Logger,
    private readonly limits: ZipDownloadLimits = DEFAULT_ZIP_LIMITS,
  ) {}

  async prepare(owner: Owner, request: ZipDownloadRequest): Promise<PrepareResult> {
    // The user's own images of that gallery: anyone else's name is unknown here, as is a path.
    const own = await this.images.filenames(owner.id, request.kind);
    const names = [...new Set(request.files)];
    const unknown = names.find((name) => !own.has(name));
    if (unknown !== undefined) {
      return { ok: false, status: 404, error: ZIP_TEXTS.unknownImage(unknown) };
    }
    const live = [...this.tickets.values()].filter(
      (t) => t.owner.id === owner.id && (t.state === 'waiting' || t.state === 'sending'),
    );
    if (live.length >= this.limits.perOwner) {
      return { ok: false, status: 429, error: ZIP_TEXTS.tooMany };
    }
    const token = randomBytes(24).toString('base64url');
    const filename = zipName(request.kind, new Date());
    const ticket: Ticket = {
      owner,
      kind: request.kind,
      names,
      filename,
      state: 'waiting',
      sent: 0,
      timer: this.expireIn(token, this.limits.unusedMs),
    };
    this.tickets.set(token, ticket);
    return { ok: true, ticket: { token, filename, files: names.length } };
  }

  /** How far the ZIP went; undefined for a token this user does not hold. */
  progress(owner: Owner, token: string): ZipDownloadProgress | undefined {
    const ticket = this.ticketOf(owner, token);
    if (!ticket) return undefined;
    return {
      state: ticket.state,
      sent: ticket.sent,
      ...(ticket.total !== undefined && { total: ticket.total }),
      ...(ticket.error !== undefined && { error: ticket.error }),
    };
  }

  /** The ZIP of a waiting ticket; a token is good for one download. */
  async open(owner: Owner, token: string): Promise<OpenResult> {
    const ticket = this.ticketOf(owner, token);
    if (!ticket || ticket.state !== 'waiting') {
      return { ok: false, status: 404, error: ZIP_TEXTS.expired };
    }
    ticket.state = 'sending';
    clearTimeout(ticket.timer);

    const area = ticket.kind;
    const entries = [];
    for (const name of ticket.names) {
      const stat = await this.files.stat(owner.username, area, name);
      if (!stat) {
        this.finish(token, ticket, 'failed', ZIP_TEXTS.fileGone(name));
        return { ok: false, status: 410, error: ZIP_TEXTS.fileGone(name) };
      }
      entries.push(stat);
    }

    const zip = new ZipFile();
    // Each file is opened only when its turn comes (one at a time), and closed if the
    // download stops in the middle of it.
    const open = new Set<Readable>();
    for (const entry of entries) {
      zip.addReadStreamLazy(
        entry.name,
        { size: entry.bytes, mtime: entry.modifiedAt, mode: 0o100644, compress: false },
        (done) => {
          const stream = this.files.read(owner.username, area, entry.name);
          open.add(stream);
          stream.once('close', () => open.delete(stream));
          done(null, stream);
        },
      );
    }
    let total: number;
    try {
      total = await endZip(zip);
    } catch (err) {
      this.finish(token, ticket, 'failed', ZIP_TEXTS.readFailed);
      throw err;
    }
    ticket.total = total;

    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        ticket.sent += chunk.length;
        callback(null, chunk);
      },
    });
    const output = zip.outputStream as Readable;
    output.pipe(counter);
    const fail = (err: unknown) => {
      this.log.warn({ err, user: owner.username, zip: ticket.filename }, 'ZIP download failed');
      if (ticket.state === 'sending') this.finish(token, ticket, 'failed', ZIP_TEXTS.readFailed);
      counter.destroy(err instanceof Error ? err : new Error(String(err)));
    };
    // yazl reports a file that cannot be read (or changed size) on the ZipFile, not the stream.
    zip.on('error', fail);
    counter.once('close', () => {
      output.unpipe(counter);
      output.destroy();
      for (const stream of open) stream.destroy();
    });

    return {
      ok: true,
      zip: {
        filename: ticket.filename,
        total,
        stream: counter,
        settle: (completed) => {
          if (ticket.state !== 'sending') return;
          if (completed) this.finish(token, ticket, 'sent');
          else this.finish(token, ticket, 'failed', ZIP_TEXTS.interrupted);
        },
      },
    };
  }

  /** Drops every ticket (the server stops). */
  close(): void {
    for (const ticket of this.tickets.values()) clearTimeout(ticket.timer);
    this.tickets.clear();
  }

  private ticketOf(owner: Owner, token: string): Ticket | undefined {
    const ticket = this.tickets.get(token);
    return ticket && ticket.owner.id === owner.id ? ticket : undefined;
  }

  private finish(token: string, ticket: Ticket, state: 'sent' | 'failed', error?: string): void {
    ticket.state = state;
    if (error !== undefined) ticket.error = error;
    clearTimeout(ticket.timer);
    ticket.timer = this.expireIn(token, this.limits.keepMs);
    this.log.info(
      { user: ticket.owner.username, zip: ticket.filename, state, sent: ticket.sent },
      'ZIP download ended',
    );
  }

  private expireIn(token: string, ms: number): NodeJS.Timeout {
    const timer = setTimeout(() => {
      const ticket = this.tickets.get(token);
      // One still sending is dropped when it ends, not here.
      if (ticket && ticket.state !== 'sending') this.tickets.delete(token);
    }, ms);
    timer.unref();
    return timer;
  }
}

/**
 * Ends the ZIP and resolves with its exact size. yazl knows it in advance when every entry is
 * stored with its size given (its `calculatedTotalSizeCallback`, which @types/yazl types without
 * its argument).
 */
function endZip(zip: ZipFile): Promise<number> {
  const end = zip.end.bind(zip) as (
    options: undefined,
    calculatedTotalSizeCallback: (size: number) => void,
  ) => void;
  return new Promise((resolve, reject) =>
    end(undefined, (size) =>
      size >= 0 ? resolve(size) : reject(new Error('The ZIP size could not be known in advance')),
    ),
  );
}

/** tessera-hd-2025-01-31-1530.zip: which gallery, and when (UTC), so two downloads differ. */
function zipName(kind: string, now: Date): string {
  const stamp = now.toISOString().slice(0, 16).replace('T', '-').replace(':', '');
  return `tessera-${kind}-${stamp}.zip`;
}
