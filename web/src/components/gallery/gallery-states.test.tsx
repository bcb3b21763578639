// @vitest-environment jsdom
import { formatCount } from '@tessera/contract';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseLocale } from '../../lib/i18n';
import { GalleryCount } from './gallery-states';

describe('the gallery count', () => {
  afterEach(() => {
    cleanup();
    act(() => chooseLocale('es'));
    localStorage.clear();
  });

  const count = () => screen.getByRole('status').textContent ?? '';

  it('writes its numbers in the chosen locale: es-ES by default, en-GB in English', () => {
    render(<GalleryCount shown={1000} total={12345} loadingMore={false} />);
    expect(formatCount(12345)).toBe('12.345');
    expect(count()).toContain(formatCount(1000));
    expect(count()).toContain('12.345');
    expect(count()).not.toContain('1,000');

    act(() => chooseLocale('en'));
    expect(count()).toContain('1,000');
    expect(count()).toContain('12,345');
  });
});
