// @vitest-environment jsdom
import { API_ROUTES, OUTPUT_TEXTS, PRINT_TEXTS, TEXTS, type HdImage } from '@tessera/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HdImageDetailsModal } from './hd-image-details-modal';
import { HdTile } from './hd-tile';

// The HD gallery's word for an HD whose file the retention policy removed (issue 29, part 4).

const SQUARE_30 = {
  rescale_factor_cr711: 1.74,
  scale_by_latent707: 1,
  rescale_factor_cr701: 1.5,
  scale_by_image692: 1.4,
  created_at: '2026-01-10T10:00:00.000Z',
};
const REMOVED_AT = '2026-03-01T04:00:00.000Z';
const removedText = TEXTS.hdRemovedByRetention(new Date(REMOVED_AT).toLocaleString('es-ES'));

const image = (removed: boolean): HdImage => ({
  filename: 'tile_30x30.png',
  thumbnail: '/api/images/hd/thumbnail/tile_30x30.png',
  metadata: SQUARE_30,
  ...(removed && { removed_by_retention_at: REMOVED_AT }),
});

function withQueries(children: ReactNode) {
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) => {
      const body =
        input.split('?')[0] === API_ROUTES.printFiles ? { files: [] } : { error: 'Not found' };
      return Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

const tile = (removed: boolean) => (
  <HdTile
    image={image(removed)}
    top={0}
    left={0}
    width={200}
    height={200}
    selected={false}
    busy={false}
    onOpen={vi.fn()}
    onToggleSelect={vi.fn()}
    onDelete={vi.fn()}
  />
);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('an HD removed by the retention policy', () => {
  it('says so on its tile, dated as the gallery dates, with Delete and no Download', () => {
    render(tile(true));
    const item = screen.getByRole('listitem');
    expect(within(item).getByRole('note').textContent).toBe(removedText);
    expect(removedText).toMatch(/^Eliminado por la política de retención el 1\/3\/2026/);
    expect(within(item).queryByRole('link', { name: /Download/ })).toBeNull();
    expect(within(item).getByRole('button', { name: /Delete/ })).toBeTruthy();
  });

  it('an HD whose file is there has its Download and no note', () => {
    render(tile(false));
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.getByRole('link', { name: 'Download tile_30x30.png' })).toBeTruthy();
  });

  it('says so in the details, how to have it again, and offers neither Download nor print', () => {
    render(withQueries(<HdImageDetailsModal image={image(true)} onClose={vi.fn()} />));
    const dialog = screen.getByRole('dialog', { name: OUTPUT_TEXTS.detailsTitle });
    const note = within(dialog).getByRole('note');
    expect(note.textContent).toBe(removedText + TEXTS.hdRemovedByRetentionHint);
    expect(within(dialog).queryByRole('link', { name: 'Download' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: PRINT_TEXTS.open })).toBeNull();
    // The metadata stays: its name and date are still shown.
    expect(within(dialog).getByText('tile_30x30.png')).toBeTruthy();
  });
});
