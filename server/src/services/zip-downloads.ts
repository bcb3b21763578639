import { createHash, randomBytes } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import {
  errorText,
  readSeriesFace,
  zipEntryNames,
  type ZipDownloadProgress,
  type ZipDownloadRequest,
  type ZipDownloadTicket,
} from '@tessera/contract';
import type { Logger } from 'pino';
import { ZipFile } from 'yazl';
import type { FileStore } from '../files/file-store.js';
import type { ImageRepository } from '../store/images.js';
import type { ZipDownloadRepository } from '../store/zip-downloads.js';
import type { Owner } from '../owner.js';

export interface ZipDownloadLimits {
  /** A ticket the browser never used is dropped after this long. */
  unusedMs: number;
  /** How long the outcome stays readable by the progress query once sending ended. */
  keepMs: number;
  /** Tickets one user may hold at once (waiting or sending). */
  perOwner: number;
}

/** The owner's material maps by file name (issue 17): what a ZIP of kind 'maps' may hold. */
export interface MapFileNames {
  filenames(owner: Owner): Promise<Set<string>>;
}

export const DEFAULT_ZIP_LIMITS: ZipDownloadLimits = {
  unusedMs: 60_000,
  keepMs: 60_000,
  perOwner: 4,
};

/** How often the bytes sent are written down while a ZIP goes out (the progress query reads them). */
const PROGRESS_WRITE_MS = 250;
/**
 * A sending ticket counts as live while its process renews this lease (at every progress write,
 * and at least every third of it while no byte moves); one whose server died lapses.
 */
const SENDING_LEASE_MS = 60_000;
/** A sending ticket whose lease lapsed this long ago is deleted. */
const STALE_SENDING_MS = 60 * 60_000;

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
 * memory. Tickets live in the database (only their tokens' hashes), so that with several server
 * processes the POST, the GET and the progress queries may each reach a different one.
 */
export class ZipDownloads {
  /** The downloads this process is sending: their lease renewals, stopped on close. */
  private readonly sending = new Set<NodeJS.Timeout>();

  constructor(
    private readonly tickets: ZipDownloadRepository,
    private readonly images: ImageRepository,
    private readonly files: FileStore,
    private readonly log: Logger,
    private readonly limits: ZipDownloadLimits = DEFAULT_ZIP_LIMITS,
    private readonly mapFiles?: MapFileNames,
    private readonly now: () => number = Date.now,
  ) {}

  async prepare(owner: Owner, request: ZipDownloadRequest): Promise<PrepareResult> {
    // The user's own images of that gallery: anyone else's name is unknown here, as is a path.
    const own =
      request.kind === 'maps'
        ? ((await this.mapFiles?.filenames(owner)) ?? new Set<string>())
        : await this.images.filenames(owner.id, request.kind);
    const names = [...new Set(request.files)];
    const unknown = names.find((name) => !own.has(name));
    if (unknown !== undefined) {
      return { ok: false, status: 404, error: errorText('ZIP_UNKNOWN_IMAGE', unknown) };
    }
    const now = this.now();
    await this.tickets.purge(now, now - STALE_SENDING_MS);
    const token = randomBytes(24).toString('base64url');
    const filename = zipName(request.kind, new Date(now));
    const added = await this.tickets.add(
      hashOf(token),
      {
        ownerId: owner.id,
        kind: request.kind,
        names,
        filename,
        state: 'waiting',
        sent: 0,
        expiresAt: now + this.limits.unusedMs,
      },
      now,
      this.limits.perOwner,
    );
    if (!added) return { ok: false, status: 429, error: errorText('ZIP_TOO_MANY') };
    return { ok: true, ticket: { token, filename, files: names.length } };
  }

  /** How far the ZIP went; undefined for a token this user does not hold. */
  async progress(owner: Owner, token: string): Promise<ZipDownloadProgress | undefined> {
    const ticket = await this.tickets.find(hashOf(token));
    if (!ticket || ticket.ownerId !== owner.id) return undefined;
    // One still sending is readable however long its client takes; others until they expire.
    if (ticket.state !== 'sending' && ticket.expiresAt <= this.now()) return undefined;
    return {
      state: ticket.state,
      sent: ticket.sent,
      ...(ticket.total !== undefined && { total: ticket.total }),
      ...(ticket.error !== undefined && { error: ticket.error }),
    };
  }

  /** The ZIP of a waiting ticket; a token is good for one download. */
  async open(owner: Owner, token: string): Promise<OpenResult> {
    const key = hashOf(token);
    const ticket = await this.tickets.find(key);
    const now = this.now();
    if (
      !ticket ||
      ticket.ownerId !== owner.id ||
      !(await this.tickets.startSending(key, owner.id, now, now + SENDING_LEASE_MS))
    ) {
      return { ok: false, status: 404, error: errorText('ZIP_EXPIRED') };
    }
    const progress = new ProgressWriter(this.tickets, key, this.now, (err) =>
      this.log.warn({ err }, 'ZIP progress not saved'),
    );
    const renewal = setInterval(() => progress.renew(), SENDING_LEASE_MS / 3);
    renewal.unref();
    this.sending.add(renewal);
    const end = (state: 'sent' | 'failed', error?: string) => {
      clearInterval(renewal);
      this.sending.delete(renewal);
      progress.finish(state, this.now() + this.limits.keepMs, error);
      this.log.info(
        { user: owner.username, zip: ticket.filename, state, sent: progress.sent },
        'ZIP download ended',
      );
    };

    const area = ticket.kind;
    const entries = [];
    for (const name of ticket.names) {
      const stat = await this.files.stat(owner.username, area, name);
      if (!stat) {
        end('failed', errorText('IMAGE_GONE', name));
        await progress.idle();
        return { ok: false, status: 410, error: errorText('IMAGE_GONE', name) };
      }
      entries.push(stat);
    }
    const entryNames = await this.entryNames(owner, area, ticket.names);

    const zip = new ZipFile();
    // Each file is opened only when its turn comes (one at a time), and closed if the
    // download stops in the middle of it.
    const open = new Set<Readable>();
    for (const [index, entry] of entries.entries()) {
      zip.addReadStreamLazy(
        entryNames[index] ?? entry.name,
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
      end('failed', errorText('ZIP_READ_FAILED'));
      throw err;
    }
    progress.total = total;
    progress.write();

    let ended = false;
    const endOnce = (state: 'sent' | 'failed', error?: string) => {
      if (ended) return;
      ended = true;
      end(state, error);
    };
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        progress.add(chunk.length);
        callback(null, chunk);
      },
    });
    const output = zip.outputStream as Readable;
    output.pipe(counter);
    const fail = (err: unknown) => {
      this.log.warn({ err, user: owner.username, zip: ticket.filename }, 'ZIP download failed');
      endOnce('failed', errorText('ZIP_READ_FAILED'));
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
          if (completed) endOnce('sent');
          else endOnce('failed', errorText('ZIP_INTERRUPTED'));
        },
      },
    };
  }

  /**
   * The names the images get in the ZIP: a face of a series by face in its series' folder
   * (contract zipEntryNames; issue 25), anything else by its file name.
   */
  private async entryNames(owner: Owner, area: string, names: readonly string[]) {
    if (area !== 'ld' && area !== 'hd') return [...names];
    const images = [];
    for (const filename of names) {
      const image = await this.images.find(owner.id, area, filename);
      images.push({ filename, series: image && readSeriesFace(image.metadata) });
    }
    return zipEntryNames(images);
  }

  /** Stops renewing the leases of downloads under way (the server stops). */
  close(): void {
    for (const renewal of this.sending) clearInterval(renewal);
    this.sending.clear();
  }
}

/**
 * Writes one ticket's bytes sent to the database, at most every PROGRESS_WRITE_MS, one write at
 * a time and in order, the end last.
 */
class ProgressWriter {
  sent = 0;
  total = 0;
  private lastWrite = 0;
  private chain: Promise<void> = Promise.resolve();
  private ended = false;

  constructor(
    private readonly tickets: ZipDownloadRepository,
    private readonly key: string,
    private readonly now: () => number,
    private readonly onError: (err: unknown) => void,
  ) {}

  add(bytes: number): void {
    this.sent += bytes;
    if (this.now() - this.lastWrite >= PROGRESS_WRITE_MS) this.write();
  }

  /** Renews the lease while no byte moves (a slow reader). */
  renew(): void {
    this.write();
  }

  write(): void {
    if (this.ended) return;
    this.lastWrite = this.now();
    const { sent, total } = this;
    this.enqueue(() => this.tickets.progress(this.key, sent, total, this.now() + SENDING_LEASE_MS));
  }

  finish(state: 'sent' | 'failed', keepUntil: number, error?: string): void {
    if (this.ended) return;
    this.ended = true;
    const end = { state, sent: this.sent, ...(error !== undefined && { error }) };
    this.enqueue(() => this.tickets.finish(this.key, end, keepUntil));
  }

  idle(): Promise<void> {
    return this.chain;
  }

  private enqueue(write: () => Promise<void>): void {
    this.chain = this.chain.then(write).catch(this.onError);
  }
}

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Ends the ZIP and resolves with its exact size. yazl knows it in advance when every entry is
 * stored with its size given (its `calculatedTotalSizeCallback`, which @types/yazl types without
 * its argument).
 */
export function endZip(zip: ZipFile): Promise<number> {
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
