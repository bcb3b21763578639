import { TEXT_BUNDLES } from '@tessera/contract';
import type { GenerationStatus, HdStatusMessage } from '@tessera/contract';
import type { HdStatusEvent } from '../../lib/messaging';
import { currentTexts } from '../../lib/i18n';

/** The texts in the language shown when one is written. */
const texts = () => currentTexts(TEXT_BUNDLES.texts);

/**
 * The HD status toast of SPEC §2, §4 and §9 as pure state: which toast shows, the ids waiting
 * in the queue, and the toast ids already shown. The component only dispatches and renders.
 */

export interface Toast {
  /** Grows with every toast shown, so the view can tell a new toast from the one before. */
  seq: number;
  /** The status it tells; 'notice' for an end that is no failure (a cancel, a repeated order). */
  kind: GenerationStatus | 'notice' | 'unknown';
  text: string;
  /** The LD image the status is about (its thumbnail shows); none for an unknown message. */
  image?: string;
}

export interface ToastState {
  /** The one toast on screen, or null. */
  toast: Toast | null;
  /** Ids of the HD jobs waiting in the queue (SPEC §4 queue tracking), in arrival order. */
  queuedIds: readonly string[];
  /** Toast ids already shown: a toast id is shown once (SPEC §4 deduplication). */
  shownIds: readonly string[];
  /** Ids of the HD jobs a status message spoke of: for them the stream is newer than a list. */
  heardIds: readonly string[];
  /** The pointer rests on the toast. */
  paused: boolean;
  seq: number;
}

export type ToastAction =
  | { type: 'event'; event: HdStatusEvent }
  /** The server listed these HD jobs as queued (read on load, so a reload keeps the count). */
  | { type: 'queue-listed'; ids: readonly string[] }
  | { type: 'dismiss' }
  | { type: 'hover'; paused: boolean };

export const INITIAL_TOAST_STATE: ToastState = {
  toast: null,
  queuedIds: [],
  shownIds: [],
  heardIds: [],
  paused: false,
  seq: 0,
};

/** Toast and job ids remembered; older ones are forgotten so a long session does not grow without end. */
export const SHOWN_IDS_KEPT = 1000;

/**
 * SPEC §4: an id joins the list when a message says 'queued' and it is not listed yet; it
 * leaves when a message for it says anything else.
 */
export function trackQueue(
  queuedIds: readonly string[],
  message: HdStatusMessage,
): readonly string[] {
  const listed = queuedIds.includes(message.id);
  if (message.status === 'queued') return listed ? queuedIds : [...queuedIds, message.id];
  return listed ? queuedIds.filter((id) => id !== message.id) : queuedIds;
}

/**
 * The queue the server listed joins the tracked one, except the jobs a status message already
 * spoke of: a message that arrived while the list was on its way is newer than the list.
 */
export function seedQueue(state: ToastState, listedIds: readonly string[]): ToastState {
  const added = listedIds.filter(
    (id) => !state.queuedIds.includes(id) && !state.heardIds.includes(id),
  );
  return added.length === 0 ? state : { ...state, queuedIds: [...state.queuedIds, ...added] };
}

/** SPEC §4: the image id plus the status, plus the percent for in_progress. */
export function toastId(message: HdStatusMessage): string {
  const base = `${message.id}:${message.status}`;
  return message.status === 'in_progress' ? `${base}:${message.percent}` : base;
}

/** SPEC §9 texts; `queuedCount` is the length of the queue list after this message. */
export function toastText(message: HdStatusMessage, queuedCount: number): string {
  switch (message.status) {
    case 'queued':
      return texts().hdQueuedToast(message.image);
    case 'in_progress':
      return texts().hdInProgressToast(Math.round(message.percent), queuedCount);
    case 'finished':
      return texts().hdFinishedToast(message.image);
    case 'error':
      // Not a failure: a cancelled job, or an order of what is already on its way.
      if (message.reason === 'cancelled') return texts().hdCancelledToast(message.image);
      if (message.reason === 'already-ordered') return texts().hdAlreadyOrderedToast(message.image);
      return texts().hdErrorToast(message.image);
    default:
      return texts().unknownStatus;
  }
}

function show(state: ToastState, toast: Omit<Toast, 'seq'>): ToastState {
  const seq = state.seq + 1;
  return { ...state, seq, toast: { ...toast, seq } };
}

function onEvent(state: ToastState, event: HdStatusEvent): ToastState {
  // A message the app cannot read has no id to deduplicate by: each one is told.
  if (event.kind === 'unknown')
    return show(state, { kind: 'unknown', text: texts().unknownStatus });
  const message = event.message;
  const queuedIds = trackQueue(state.queuedIds, message);
  const heardIds = state.heardIds.includes(message.id)
    ? state.heardIds
    : [...state.heardIds, message.id].slice(-SHOWN_IDS_KEPT);
  const tracked =
    queuedIds === state.queuedIds && heardIds === state.heardIds
      ? state
      : { ...state, queuedIds, heardIds };
  const id = toastId(message);
  if (tracked.shownIds.includes(id)) return tracked;
  const shownIds = [...tracked.shownIds, id].slice(-SHOWN_IDS_KEPT);
  return show(
    { ...tracked, shownIds },
    {
      kind: message.reason === undefined ? message.status : 'notice',
      text: toastText(message, queuedIds.length),
      image: message.image,
    },
  );
}

export function toastReducer(state: ToastState, action: ToastAction): ToastState {
  switch (action.type) {
    case 'event':
      return onEvent(state, action.event);
    case 'queue-listed':
      return seedQueue(state, action.ids);
    case 'dismiss':
      // The element goes away under the pointer without a mouseleave: it is no longer hovered.
      return state.toast === null ? state : { ...state, toast: null, paused: false };
    case 'hover':
      return state.paused === action.paused ? state : { ...state, paused: action.paused };
  }
}
