// @vitest-environment jsdom
import {
  API_ROUTES,
  DETAIL_TEXTS,
  errorText,
  shownErrorText,
  PRINT_TEXTS,
  type HdImage,
  type PrintEstimate,
  type PrintFile,
  type PrintProfile,
} from '@tessera/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hdGeometry } from '../hd-geometry';
import { PrintDialog } from './print-dialog';

/** A Rectangle at 60x120: 8189 × 4094 px, printing 120 × 60 cm. */
const HD: HdImage = {
  filename: 'tile_60x120.png',
  thumbnail: '/api/images/hd/thumbnail/tile_60x120.png',
  metadata: {
    rescale_factor_cr711: 1.74,
    scale_by_latent707: 1,
    rescale_factor_cr701: 1.5,
    scale_by_image692: 3.77,
    detail_width: 2172,
  },
};

const PROFILES: PrintProfile[] = [
  { id: 'srgb', name: 'sRGB IEC61966-2.1', colourSpace: 'rgb' },
  { id: 'fogra39.icc', name: 'Coated FOGRA39', colourSpace: 'cmyk' },
];

function printFile(fields: Partial<PrintFile>): PrintFile {
  return {
    id: 'p1',
    image: HD.filename,
    settings: {
      dpi: 300,
      bleedMm: 2,
      compression: 'deflate',
      bitDepth: 16,
      profile: 'fogra39.icc',
    },
    status: 'queued',
    percent: 0,
    width: 14220,
    height: 7134,
    createdAt: '2026-11-26T10:00:00.000Z',
    ...fields,
  };
}

/**
 * The server as the dialog sees it: the profiles, an estimate for any settings, the order, and
 * the image's print files, each poll answering the next of `lists` (the last one for ever after).
 */
function serve(lists: PrintFile[][] = [[]], refusal?: string) {
  const orders: unknown[] = [];
  const estimates: URLSearchParams[] = [];
  let polls = 0;
  const fetch = vi.fn((input: string, init?: RequestInit) => {
    const [path = '', query = ''] = input.split('?');
    let body: unknown;
    let status = 200;
    if (path === API_ROUTES.printProfiles) body = { profiles: PROFILES };
    else if (path === API_ROUTES.printEstimate) {
      estimates.push(new URLSearchParams(query));
      body = {
        width: 1,
        height: 1,
        uncompressedBytes: 1,
        estimatedBytes: 300_000_000,
      } satisfies PrintEstimate;
    } else if (path === API_ROUTES.printOrder) {
      orders.push(JSON.parse(String(init?.body)));
      body = refusal === undefined ? printFile({}) : { error: refusal };
      status = refusal === undefined ? 202 : 409;
    } else if (path === API_ROUTES.printFiles) {
      body = { files: lists[Math.min(polls++, lists.length - 1)] ?? [] };
    } else {
      status = 404;
      body = { error: 'Not found' };
    }
    return Promise.resolve(new Response(JSON.stringify(body), { status }));
  });
  vi.stubGlobal('fetch', fetch);
  return { orders, estimates };
}

function show() {
  const geometry = hdGeometry(HD);
  if (!geometry) throw new Error('60x120 has a geometry');
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PrintDialog image={HD} geometry={geometry} onClose={() => undefined} />
    </QueryClientProvider>,
  );
}

/** The value beside a label of the sizes shown before ordering. */
function field(label: string): string {
  return screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent ?? '';
}

const orderButton = () =>
  screen.getByRole('button', { name: PRINT_TEXTS.order }) as HTMLButtonElement;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the print dialog', () => {
  it('shows a 60x120 at 360 dpi with 3 mm bleed as 17.093 × 8589 px before ordering', async () => {
    const server = serve();
    show();
    // (120 + 0.6) ÷ 2.54 × 360 = 17092.9 → 17093; (60 + 0.6) ÷ 2.54 × 360 = 8589.0 → 8589.
    expect(field(PRINT_TEXTS.pixels)).toBe('17.093 × 8589 px (146,8 MP)');
    expect(field(PRINT_TEXTS.physicalSize)).toBe(
      '120,6 × 60,6 cm (corte de 120 × 60 cm, 3 mm de sangrado)',
    );
    // 17093 × 8589 × 3 bytes, exactly.
    expect(field(PRINT_TEXTS.uncompressed)).toBe('440.435.331 bytes (420,0 MB)');
    await waitFor(() => expect(field(PRINT_TEXTS.estimated)).toBe('unos 286,1 MB'));
    expect(Object.fromEntries(server.estimates.at(-1) ?? [])).toEqual({
      image: 'tile_60x120.png',
      dpi: '360',
      bleedMm: '3',
      compression: 'lzw',
      bitDepth: '8',
      profile: 'srgb',
    });

    // CMYK at 16 bits: four samples of two bytes.
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText(PRINT_TEXTS.profile), 'fogra39.icc');
    await user.click(screen.getByLabelText(PRINT_TEXTS.bits(16)));
    expect(field(PRINT_TEXTS.uncompressed)).toBe('1.174.494.216 bytes (1,09 GB)');
    // The detail the print gets: 2172 px over 120 cm (18.1 px/cm) of 141.7 px/cm is 13 %.
    const detail = screen.getByRole('region', { name: DETAIL_TEXTS.heading });
    expect(within(detail).getByText(DETAIL_TEXTS.print).nextElementSibling?.textContent).toBe(
      '141,7 px/cm (360 ppp)',
    );
    expect(within(detail).getByText(/se ha generado/).textContent).toBe(
      'El 13 % del detalle de la impresión se ha generado; el resto es ampliación.',
    );
  });

  it('says why a resolution or a bleed cannot be used, and does not order', async () => {
    const server = serve();
    show();
    const user = userEvent.setup();
    const dpi = screen.getByLabelText(PRINT_TEXTS.dpiTyped);
    await user.clear(dpi);
    await user.type(dpi, '50');
    expect(screen.getByRole('alert').textContent).toBe(PRINT_TEXTS.dpiInvalid);
    expect(PRINT_TEXTS.dpiInvalid).toBe(
      'La resolución debe ser un número entero de 72 a 1200 ppp.',
    );
    expect(orderButton().disabled).toBe(true);
    expect(screen.queryByText(PRINT_TEXTS.pixels)).toBeNull();

    await user.click(screen.getByRole('button', { name: '300 ppp' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(orderButton().disabled).toBe(false);

    const bleed = screen.getByLabelText(PRINT_TEXTS.bleed);
    await user.clear(bleed);
    await user.type(bleed, '2.3');
    expect(screen.getByRole('alert').textContent).toBe(PRINT_TEXTS.bleedInvalid);
    expect(orderButton().disabled).toBe(true);
    await user.click(orderButton());
    expect(server.orders).toEqual([]);
    // No estimate is asked for settings the server would refuse.
    expect(server.estimates.every((query) => query.get('bleedMm') !== '2.3')).toBe(true);
  });

  it('orders the settings chosen, then shows the progress and the Download link', async () => {
    const running = printFile({ status: 'in_progress', percent: 40 });
    const finished = printFile({
      status: 'finished',
      percent: 100,
      filename: 'tile_60x120_300dpi_cmyk.tif',
      bytes: 52_428_800,
    });
    const server = serve([[], [running], [running], [finished]]);
    show();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: PRINT_TEXTS.dpiButton(300) }));
    const bleed = screen.getByLabelText(PRINT_TEXTS.bleed);
    await user.clear(bleed);
    await user.type(bleed, '2');
    await user.click(screen.getByLabelText('Deflate (ZIP)'));
    await user.click(screen.getByLabelText(PRINT_TEXTS.bits(16)));
    await user.selectOptions(await screen.findByLabelText(PRINT_TEXTS.profile), 'fogra39.icc');
    await user.click(orderButton());
    expect(server.orders).toEqual([
      {
        image: 'tile_60x120.png',
        dpi: 300,
        bleedMm: 2,
        compression: 'deflate',
        bitDepth: 16,
        profile: 'fogra39.icc',
      },
    ]);

    const files = await screen.findByRole('region', { name: PRINT_TEXTS.files });
    const progress = await within(files).findByRole(
      'progressbar',
      { name: PRINT_TEXTS.progress },
      { timeout: 3000 },
    );
    await waitFor(() => expect(progress.getAttribute('value')).toBe('40'), { timeout: 3000 });
    expect(within(files).getByText(PRINT_TEXTS.making(40))).toBeTruthy();
    expect(
      within(files).getByText(
        '300 ppp · 2 mm de sangrado · Deflate (ZIP) · 16 bits · Coated FOGRA39 (CMYK)',
      ),
    ).toBeTruthy();

    const link = await within(files).findByRole(
      'link',
      { name: 'Descargar (50,0 MB)' },
      { timeout: 3000 },
    );
    expect(link.getAttribute('href')).toBe('/api/images/print/tile_60x120_300dpi_cmyk.tif');
    expect(link.getAttribute('download')).toBe('tile_60x120_300dpi_cmyk.tif');
    expect(within(files).queryByRole('progressbar')).toBeNull();
  });

  it("shows the server's refusal and a failed file's reason", async () => {
    const refusal = errorText('PRINT_ALREADY_ORDERED');
    serve([[printFile({ status: 'error', percent: 10, error: 'The disk is full' })]], refusal);
    show();
    const files = await screen.findByRole('region', { name: PRINT_TEXTS.files });
    expect(within(files).getByRole('alert').textContent).toBe('The disk is full');
    await userEvent.click(orderButton());
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain(
        shownErrorText('es', 'PRINT_ALREADY_ORDERED'),
      ),
    );
    expect(orderButton().disabled).toBe(false);
  });
});
