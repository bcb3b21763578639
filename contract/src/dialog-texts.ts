// What every dialog says of itself, in Spanish with its English twin (issue 30, part 5).
import type { Translation } from './i18n.js';

export const DIALOG_TEXTS = {
  /** The × button that closes a dialog. */
  close: 'Cerrar',
} as const;

/** DIALOG_TEXTS in English. */
export const DIALOG_TEXTS_EN: Translation<typeof DIALOG_TEXTS> = {
  close: 'Close',
};
