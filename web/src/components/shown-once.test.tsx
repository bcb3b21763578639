// @vitest-environment jsdom
import { DIALOG_TEXTS } from '@tessera/contract';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShownOnce } from './shown-once';

const SECRET = 'tsr_5eCr3t-shown-once';

describe('a secret shown once', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    window.getSelection()?.removeAllRanges();
  });

  it('copies the secret to the clipboard and says so', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    render(<ShownOnce value={SECRET} label="Token nuevo" />);
    expect(screen.getByLabelText('Token nuevo').textContent).toBe(SECRET);

    await userEvent.click(screen.getByRole('button', { name: DIALOG_TEXTS.copy }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(screen.getByRole('button', { name: DIALOG_TEXTS.copied })).toBeTruthy();
  });

  it('selects the secret where the page may not write the clipboard (plain HTTP)', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    render(<ShownOnce value={SECRET} label="Token nuevo" />);

    await userEvent.click(screen.getByRole('button', { name: DIALOG_TEXTS.copy }));
    expect(window.getSelection()?.toString()).toBe(SECRET);
    // It has not claimed a copy it could not make.
    expect(screen.getByRole('button', { name: DIALOG_TEXTS.copy })).toBeTruthy();
  });

  it('selects it too when the browser refuses the write', async () => {
    const writeText = vi.fn(() => Promise.reject(new Error('NotAllowedError')));
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    render(<ShownOnce value={SECRET} label="Token nuevo" />);

    await userEvent.click(screen.getByRole('button', { name: DIALOG_TEXTS.copy }));
    expect(writeText).toHaveBeenCalled();
    expect(window.getSelection()?.toString()).toBe(SECRET);
  });
});
