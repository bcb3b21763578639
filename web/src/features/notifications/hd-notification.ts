import { TEXT_BUNDLES } from '@tessera/contract';
import type { HdStatusMessage } from '@tessera/contract';
import { currentTexts, serverText } from '../../lib/i18n';

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

/** In the language shown when it is written. */
export function hdNotificationFor(message: HdStatusMessage): HdNotification | null {
  const texts = currentTexts(TEXT_BUNDLES.hdNotifications);
  const tag = `tessera-hd:${message.id}:${message.status}`;
  if (message.status === 'finished') {
    const made = message.output_image ?? texts.theHdImage;
    return { tag, title: texts.readyTitle, body: texts.readyBody(made, message.image) };
  }
  if (message.status === 'error') {
    const why = message.error === undefined ? texts.failedReason : serverText(message.error);
    return { tag, title: texts.failedTitle, body: texts.failedBody(message.image, why) };
  }
  return null;
}

/** The person is not looking at this tab: another tab, window or program has their attention. */
export function inBackground(doc: Pick<Document, 'visibilityState' | 'hasFocus'>): boolean {
  return doc.visibilityState === 'hidden' || !doc.hasFocus();
}
