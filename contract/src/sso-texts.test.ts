import { describe, expect, it } from 'vitest';
import { SSO_ERROR_CODES } from './sso.js';
import { SSO_TEXTS, SSO_TEXTS_EN } from './sso-texts.js';

describe('single sign-on texts', () => {
  it('has every text in both languages', () => {
    expect(Object.keys(SSO_TEXTS).sort()).toEqual(Object.keys(SSO_TEXTS_EN).sort());
    for (const code of SSO_ERROR_CODES) {
      expect(SSO_TEXTS.errors[code]).not.toBe('');
      expect(SSO_TEXTS_EN.errors[code]).not.toBe('');
    }
  });

  it('names the provider on the button', () => {
    expect(SSO_TEXTS.signInWith('Acme')).toBe('Iniciar sesión con Acme');
    expect(SSO_TEXTS_EN.signInWith('Acme')).toBe('Sign in with Acme');
  });
});
