// What every dialog says of itself, in Spanish with its English twin (issue 30, part 5).
import type { Translation } from './i18n.js';

export const DIALOG_TEXTS = {
  /**
   * The × button that closes a dialog: its own words, since a dialog's "Cerrar" button (a token's
   * or a webhook's secret shown once) and the sidebar's "Cerrar sesión" may sit beside it.
   */
  close: 'Cerrar ventana',
  cancel: 'Cancelar',
  /** The action's button while its request runs. */
  working: 'Un momento…',
  /** The button that closes a dialog showing a secret this once (a token, a password). */
  done: 'Cerrar',
  copy: 'Copiar',
  copied: 'Copiado',
} as const;

/** DIALOG_TEXTS in English. */
export const DIALOG_TEXTS_EN: Translation<typeof DIALOG_TEXTS> = {
  close: 'Close window',
  cancel: 'Cancel',
  working: 'One moment…',
  done: 'Close',
  copy: 'Copy',
  copied: 'Copied',
};
