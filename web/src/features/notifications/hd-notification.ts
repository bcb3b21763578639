import type { HdStatusMessage } from '@tessera/contract';

/**
 * What the browser notification of an HD status says, as pure data: only a finished or failed
 * job is worth interrupting someone who is looking elsewhere.
 */
export interface HdNotification {
  /** One notification per job and outcome; the browser replaces one with the same tag. */
  tag: string;
  title: string;
  body: string;
}

/** How long a failure waits for a retry's 'queued' before it is told (the server retries). */
export const FAILURE_SETTLE_MS = 1500;

export function hdNotificationFor(message: HdStatusMessage): HdNotification | null {
  const tag = `tessera-hd:${message.id}:${message.status}`;
  if (message.status === 'finished') {
    const made = message.output_image ?? 'The HD image';
    return { tag, title: 'HD image ready', body: `${made} (from ${message.image}) is ready.` };
  }
  if (message.status === 'error') {
    const why = message.error ?? 'the HD job failed';
    return { tag, title: 'HD image failed', body: `${message.image}: ${why}` };
  }
  return null;
}

/** The person is not looking at this tab: another tab, window or program has their attention. */
export function inBackground(doc: Pick<Document, 'visibilityState' | 'hasFocus'>): boolean {
  return doc.visibilityState === 'hidden' || !doc.hasFocus();
}
