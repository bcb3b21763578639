// @vitest-environment jsdom
import {
  API_ROUTES,
  DETAIL_TEXTS,
  OUTPUT_TEXTS,
  PRINT_TEXTS,
  type HdImage,
  type PrintFile,
} from '@tessera/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HdImageDetailsModal } from './hd-image-details-modal';

/** A Square at 30x30: 1024 px of LD, 2150 px of HD, over 30 cm. */
const SQUARE_30: Record<string, unknown> = {
  rescale_factor_cr711: 1.74,
  scale_by_latent707: 1,
  rescale_factor_cr701: 1.5,
  scale_by_image692: 1.4,
  created_at: '2026-11-26T10:00:00.000Z',
};

function hdImage(metadata: Record<string, unknown>): HdImage {
  return {
    filename: 'tile_30x30.png',
    thumbnail: '/api/images/hd/thumbnail/tile_30x30.png',
    metadata,
  };
}

const FINISHED: PrintFile = {
  id: 'p1',
  image: 'tile_30x30.png',
  settings: { dpi: 300, bleedMm: 2, compression: 'lzw', bitDepth: 8, profile: 'srgb' },
  status: 'finished',
  percent: 100,
  filename: 'tile_30x30_300dpi_srgb.tif',
  bytes: 20_000_000,
  width: 3591,
  height: 3591,
  createdAt: '2026-11-26T10:05:00.000Z',
};

/** The server: the image's print files, the profiles, and nothing for the material maps. */
function serve(files: PrintFile[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) => {
      const path = input.split('?')[0];
      const [status, body] =
        path === API_ROUTES.printFiles
          ? [200, { files }]
          : path === API_ROUTES.printProfiles
            ? [200, { profiles: [{ id: 'srgb', name: 'sRGB', colourSpace: 'rgb' }] }]
            : [404, { error: 'Not found' }];
      return Promise.resolve(new Response(JSON.stringify(body), { status }));
    }),
  );
}

function show(image: HdImage, onClose = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <HdImageDetailsModal image={image} onClose={onClose} />
    </QueryClientProvider>,
  );
  return { onClose };
}

function detailValue(label: string): string {
  const section = screen.getAllByRole('region', { name: DETAIL_TEXTS.heading })[0];
  if (!section) throw new Error('no Detail section');
  return within(section).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent ?? '';
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the HD details: honest detail and print files', () => {
  it('shows px/cm of the LD, the generated detail and the HD, and the generated share', () => {
    serve([]);
    // The builtin engine's ×2 network made 2048 px of the 2150.
    show(hdImage({ ...SQUARE_30, detail_width: 2048 }));
    expect(detailValue(DETAIL_TEXTS.ld)).toBe('34,1 px/cm (87 ppp)');
    expect(detailValue(DETAIL_TEXTS.generated)).toBe('68,3 px/cm (173 ppp)');
    expect(detailValue(DETAIL_TEXTS.hd)).toBe('71,7 px/cm (182 ppp)');
    expect(screen.getByText(/se ha generado/).textContent).toBe(
      'El 95 % del detalle del archivo HD se ha generado; el resto es ampliación.',
    );
  });

  it('says the generated share is not recorded for an HD image made before', () => {
    serve([]);
    show(hdImage(SQUARE_30));
    expect(detailValue(DETAIL_TEXTS.generated)).toBe(DETAIL_TEXTS.notRecorded);
    expect(screen.getByText(DETAIL_TEXTS.shareNotRecorded)).toBeTruthy();
  });

  it("lists the image's print files with their Download links", async () => {
    serve([FINISHED]);
    show(hdImage(SQUARE_30));
    const files = await screen.findByRole('region', { name: PRINT_TEXTS.files });
    const link = within(files).getByRole('link', { name: 'Descargar (19,1 MB)' });
    expect(link.getAttribute('href')).toBe('/api/images/print/tile_30x30_300dpi_srgb.tif');
    expect(within(files).getByText('3591 × 3591 px (12,9 MP)')).toBeTruthy();
  });

  it('opens "Download for print" over the details; Escape there closes it alone', async () => {
    serve([]);
    const { onClose } = show(hdImage(SQUARE_30));
    await userEvent.click(screen.getByRole('button', { name: PRINT_TEXTS.open }));
    const print = screen.getByRole('dialog', { name: PRINT_TEXTS.title });
    expect(within(print).getByRole('button', { name: PRINT_TEXTS.order })).toBeTruthy();
    fireEvent(print, new Event('cancel', { cancelable: true }));
    expect(screen.queryByRole('dialog', { name: PRINT_TEXTS.title })).toBeNull();
    expect(screen.getByRole('dialog', { name: OUTPUT_TEXTS.detailsTitle })).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('offers no print file for an image whose size is not known', () => {
    serve([]);
    show(hdImage({ created_at: '2026-11-26T10:00:00.000Z' }));
    expect(screen.queryByRole('button', { name: PRINT_TEXTS.open })).toBeNull();
    expect(screen.queryByRole('region', { name: DETAIL_TEXTS.heading })).toBeNull();
  });
});
