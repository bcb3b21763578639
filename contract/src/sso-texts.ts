// The texts single sign-on shows (issue 30, part 4), in Spanish (the default) and English with
// the same keys; the login page's own texts (SPEC §8) are not here and do not change.
import type { SsoErrorCode } from './sso.js';

export interface SsoTexts {
  /** The login page's button, below the spec's form. */
  signInWith: (providerName: string) => string;
  /** Shown while a tab of a single sign-on session fetches its messaging login. */
  connecting: string;
  errors: Record<SsoErrorCode, string>;
}

export const SSO_TEXTS = {
  signInWith: (providerName: string) => `Iniciar sesión con ${providerName}`,
  connecting: 'Conectando…',
  errors: {
    'state-mismatch':
      'El inicio de sesión no se ha podido comprobar (ha caducado o se inició en otra ventana). Vuelve a intentarlo.',
    'nonce-mismatch':
      'La respuesta del proveedor de identidad no corresponde a este inicio de sesión. Vuelve a intentarlo.',
    'provider-refused': 'El proveedor de identidad no ha completado el inicio de sesión.',
    'provider-failed':
      'No se ha podido completar el inicio de sesión con el proveedor de identidad. Inténtalo más tarde.',
    'account-disabled': 'Esta cuenta está desactivada. Consulta a un administrador.',
    'not-enabled': 'El inicio de sesión único no está configurado en este servidor.',
  },
} as const satisfies SsoTexts;

export const SSO_TEXTS_EN = {
  signInWith: (providerName: string) => `Sign in with ${providerName}`,
  connecting: 'Connecting…',
  errors: {
    'state-mismatch':
      'The sign-in could not be checked (it expired or was started in another window). Please try again.',
    'nonce-mismatch':
      "The identity provider's answer does not belong to this sign-in. Please try again.",
    'provider-refused': 'The identity provider did not complete the sign-in.',
    'provider-failed':
      'The sign-in with the identity provider could not be completed. Try again later.',
    'account-disabled': 'This account is disabled. Ask an administrator.',
    'not-enabled': 'Single sign-on is not set up on this server.',
  },
} as const satisfies SsoTexts;
