// @vitest-environment jsdom
import { LOCALE_STORAGE_KEY } from '@tessera/contract';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { GalleryEmpty } from './gallery/gallery-states';
import { chooseLocale } from '../lib/i18n';
import { LanguageSwitch } from './language-switch';

describe('the language switch', () => {
  afterEach(() => {
    act(() => chooseLocale('es'));
    localStorage.clear();
  });

  it('starts in Spanish with the spec texts, and switches every reader at once', async () => {
    render(
      <>
        <LanguageSwitch />
        <GalleryEmpty />
      </>,
    );
    expect(screen.getByText('No se han encontrado imágenes.')).toBeTruthy();
    const group = screen.getByRole('group', { name: 'Idioma' });
    expect(screen.getByRole('button', { name: 'Español' }).getAttribute('aria-pressed')).toBe(
      'true',
    );

    await userEvent.click(screen.getByRole('button', { name: 'English' }));
    expect(screen.getByText('No images found.')).toBeTruthy();
    expect(group.getAttribute('aria-label')).toBe('Language');
    expect(screen.getByRole('button', { name: 'English' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(document.documentElement.lang).toBe('en-GB');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('en');
  });
});
