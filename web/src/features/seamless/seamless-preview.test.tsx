// @vitest-environment jsdom
import { SEAMLESS_TEXTS } from '@tessera/contract';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SeamlessPreview } from './seamless-preview';

afterEach(cleanup);

describe('SeamlessPreview', () => {
  it('toggles between the image and the image repeated 3×3', async () => {
    const user = userEvent.setup();
    render(<SeamlessPreview src="/api/images/ld/tile%201.png" alt="tile 1.png" />);
    const toggle = screen.getByRole('button', { name: SEAMLESS_TEXTS.tiledPreview });
    const single = screen.getByRole('img', { name: 'tile 1.png' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByRole('img', { name: SEAMLESS_TEXTS.tiledImage('tile 1.png') })).toBeNull();

    Object.defineProperty(single, 'naturalWidth', { value: 1448 });
    Object.defineProperty(single, 'naturalHeight', { value: 724 });
    fireEvent.load(single);
    await user.click(toggle);

    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    const tiled = screen.getByRole('img', { name: SEAMLESS_TEXTS.tiledImage('tile 1.png') });
    expect(tiled.dataset['tiles']).toBe('3x3');
    expect(tiled.style.backgroundImage).toContain('/api/images/ld/tile%201.png');
    expect(tiled.style.aspectRatio).toBe('2');
    // The single image is hidden, not gone, while tiled.
    expect(single.hidden).toBe(true);

    await user.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(single.hidden).toBe(false);
  });

  it('passes clicks on the image through, tiled or not', async () => {
    const user = userEvent.setup();
    const onImageClick = vi.fn();
    render(<SeamlessPreview src="/a.png" alt="a" defaultTiled onImageClick={onImageClick} />);
    await user.click(screen.getByRole('img', { name: SEAMLESS_TEXTS.tiledImage('a') }));
    expect(onImageClick).toHaveBeenCalledTimes(1);
  });
});
