/**
 * Where a job's input image goes on a ComfyUI server. ComfyUI has no route to delete an uploaded
 * file, so Tessera does not make new names: each server has numbered slots in its temp folder
 * (`tessera/slot-0.png`, `slot-1.png` ...), overwritten in place (`overwrite: true`). A job holds
 * its slot from the upload until its prompt is over, and takes the lowest slot that no job of
 * this process holds and no prompt in the server's queue names (a prompt queued before Tessera
 * restarted, followed again now). So a server holds at most one file per prompt in flight there,
 * and two prompts waiting or running at once never share a file.
 *
 * Several Tessera processes (workers) may share one ComfyUI farm: each names its slots after
 * its instance (`tessera/<INSTANCE_NAME>-slot-0.png`), so two processes never pick the same
 * file; a process reads only its own slots in the queue.
 *
 * ComfyUI's cache stays right: LoadImage's IS_CHANGED hashes the file's content when the prompt
 * starts, so a slot overwritten with another image is loaded again, and the same image is not.
 */
import { isRecord, type QueueResponse } from './api-types.js';
import type { ComfyClient } from './client.js';

/** A slot held by one job: the file name to upload to; release once the prompt is over. */
export interface UploadSlot {
  filename: string;
  release(): void;
}

/** The slot file name of number `n`, after this process's instance name when it has one. */
export const slotFilename = (n: number, instance?: string): string =>
  `${instance ? `${instance}-` : ''}slot-${n}.png`;

export class UploadSlots {
  /** Slot numbers held by this process's jobs, by server. */
  private readonly held = new Map<string, Set<number>>();

  private readonly slotName: RegExp;

  /**
   * `subfolder`: the folder of ComfyUI's temp folder the slots are in; `instance`: this
   * process's name (INSTANCE_NAME, a-z 0-9 -), which its slot names begin with.
   */
  constructor(
    private readonly subfolder: string,
    private readonly instance?: string,
  ) {
    this.slotName = new RegExp(`^${instance ? `${instance}-` : ''}slot-(\\d+)\\.png$`);
  }

  /** Takes the lowest free slot of `client`'s server (asks its queue which ones prompts name). */
  async take(client: ComfyClient, signal?: AbortSignal): Promise<UploadSlot> {
    const named = this.slotsNamedIn(await client.queue(signal));
    let held = this.held.get(client.displayUrl);
    if (!held) {
      held = new Set();
      this.held.set(client.displayUrl, held);
    }
    let n = 0;
    while (held.has(n) || named.has(n)) n++;
    held.add(n);
    const mine = held;
    let released = false;
    return {
      filename: slotFilename(n, this.instance),
      release: () => {
        if (released) return;
        released = true;
        mine.delete(n);
      },
    };
  }

  /** The slot numbers any waiting or running prompt loads ("tessera/slot-3.png [temp]"). */
  private slotsNamedIn(queue: QueueResponse): Set<number> {
    const named = new Set<number>();
    const prefix = `${this.subfolder}/`;
    for (const item of [...queue.queue_running, ...queue.queue_pending]) {
      const prompt: unknown = item[2];
      if (!isRecord(prompt)) continue;
      for (const node of Object.values(prompt)) {
        if (!isRecord(node) || !isRecord(node.inputs)) continue;
        for (const value of Object.values(node.inputs)) {
          if (typeof value !== 'string') continue;
          const name = value.replace(/ \[temp\]$/, '');
          if (!name.startsWith(prefix)) continue;
          const match = this.slotName.exec(name.slice(prefix.length));
          if (match) named.add(Number(match[1]));
        }
      }
    }
    return named;
  }
}
