import { hdStatusMessageSchema } from '@tessera/contract';
import type { HdStatusMessage } from '@tessera/contract';
import { serverText } from '../i18n/locale';
import type { JsonPayload } from './json-payload';

/**
 * What arrives on the HD status topic: a status message, or one the app does not recognise
 * (the UI shows TEXTS.unknownStatus for it). `payload` is kept for diagnostics only.
 */
export type HdStatusEvent =
  { kind: 'status'; message: HdStatusMessage } | { kind: 'unknown'; payload: unknown };

export type HdStatusListener = (event: HdStatusEvent) => void;

export function toHdStatusEvent(payload: JsonPayload): HdStatusEvent {
  if (!payload.ok) return { kind: 'unknown', payload: payload.text };
  const parsed = hdStatusMessageSchema.safeParse(payload.data);
  if (parsed.success) return { kind: 'status', message: localized(parsed.data) };
  console.warn('Unrecognised HD status message:', payload.data, parsed.error.issues);
  return { kind: 'unknown', payload: payload.data };
}

/** The server's texts of a status (why it failed, what it waits for) in the language shown. */
function localized(message: HdStatusMessage): HdStatusMessage {
  return {
    ...message,
    ...(message.error !== undefined && { error: serverText(message.error) }),
    ...(message.notice !== undefined && { notice: serverText(message.notice) }),
  };
}
