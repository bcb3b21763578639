// @vitest-environment jsdom
import { IMAGE_DETAILS_TEXTS, OUTPUT_TEXTS, TEXTS, seriesMetadata } from '@tessera/contract';
import type { LdImage } from '@tessera/contract';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ActiveHdJobsBadge } from '../hd';
import {
  TestProviders,
  fakeClient,
  hdJobStore,
  installDialogPolyfill,
  resetAfterTest,
  stubFetch,
} from '../hd/testing';
import type { FakeClient } from '../hd/testing';
import { LdImageDetailsModal } from './ld-image-details-modal';
import type { LdImageDetailsModalProps } from './ld-image-details-modal';

/** Face `face` of a series of `faces` made from one design: its own seed, the series' size. */
function face(face: number, faces = 3, seriesId = 'slate-9f3a'): LdImage {
  const filename = `${seriesId}-f${face}.png`;
  return {
    filename,
    thumbnail: `/api/images/ld/thumbnail/${filename}`,
    metadata: {
      cliptextencode_585: 'slate floor',
      kseed: String(100 + face),
      latent_width: 1448,
      latent_height: 724,
      ...seriesMetadata({ seriesId, face, faces }),
    },
    tags: [],
  };
}

let client: FakeClient;

function renderModal(props: Partial<LdImageDetailsModalProps> & { image: LdImage }) {
  const onClose = vi.fn();
  render(
    <TestProviders client={client}>
      {/* The sidebar's count of HD jobs waiting or running: the queue count of single orders. */}
      <ActiveHdJobsBadge />
      <LdImageDetailsModal onClose={onClose} {...props} />
    </TestProviders>,
  );
  return { onClose };
}

/** The HD order of the series, whatever its count: "Generar HD de la serie (3 caras)". */
const SERIES_ORDER = TEXTS.generateHdForSeries(0).split(' (')[0] ?? '';
const seriesButton = () =>
  screen.queryByRole('button', { name: (name) => name.startsWith(SERIES_ORDER) });

beforeAll(installDialogPolyfill);

beforeEach(() => {
  hdJobStore.reset();
  client = fakeClient();
  stubFetch(({ path }) =>
    path === '/api/query/hd-jobs' ? [200, { jobs: [], paused: false }] : undefined,
  );
});

afterEach(resetAfterTest);

describe('LD details of a face of a series (issue 25)', () => {
  it('orders HD of every face at the chosen size: one command per face, each counted as queued', async () => {
    const user = userEvent.setup();
    const faces = [face(1), face(2), face(3)];
    const { onClose } = renderModal({ image: faces[1] as LdImage, seriesFaces: faces });
    await user.selectOptions(screen.getByLabelText('Output Size'), '60x120');
    await user.click(screen.getByRole('button', { name: TEXTS.generateHdForSeries(3) }));

    expect(client.sent.map((command) => [command.image, command.seed])).toEqual([
      ['slate-9f3a-f1.png', '101'],
      ['slate-9f3a-f2.png', '102'],
      ['slate-9f3a-f3.png', '103'],
    ]);
    // The same size for each, as the single Generate HD would send it.
    const factors = client.sent.map(({ rescale_factor_cr701, scale_by_image692 }) => [
      rescale_factor_cr701,
      scale_by_image692,
    ]);
    expect(new Set(factors.map(String)).size).toBe(1);
    expect(new Set(client.sent.map((command) => command.id)).size).toBe(3);
    expect(screen.getByRole('status', { name: OUTPUT_TEXTS.jobsBadge }).textContent).toBe('3');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('without a size it only logs, as Generate HD does, and sends nothing', async () => {
    const user = userEvent.setup();
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const faces = [face(1), face(2)];
    const { onClose } = renderModal({ image: faces[0] as LdImage, seriesFaces: faces });
    await user.click(screen.getByRole('button', { name: TEXTS.generateHdForSeries(2) }));
    expect(log).toHaveBeenCalledWith(TEXTS.hdSizeRequired);
    expect(client.sent).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('the single Generate HD still orders this face only', async () => {
    const user = userEvent.setup();
    const faces = [face(1), face(2), face(3)];
    renderModal({ image: faces[2] as LdImage, seriesFaces: faces });
    await user.selectOptions(screen.getByLabelText('Output Size'), '30x60');
    await user.click(screen.getByRole('button', { name: 'Generate HD' }));
    expect(client.sent.map((command) => command.image)).toEqual(['slate-9f3a-f3.png']);
  });

  it('shows the badge and Select series, which selects the series and closes', async () => {
    const user = userEvent.setup();
    const onSelectSeries = vi.fn();
    const faces = [face(1, 4), face(2, 4), face(4, 4)];
    const { onClose } = renderModal({
      image: faces[1] as LdImage,
      seriesFaces: faces,
      onSelectSeries,
    });
    const series = screen.getByLabelText(IMAGE_DETAILS_TEXTS.series);
    expect(within(series).getByText(TEXTS.seriesFaceBadge(2, 4))).toBeTruthy();
    // Face 3 was deleted: the button says how many faces it orders.
    expect(within(series).getByText('3 de 4 caras a la vista')).toBeTruthy();
    expect(seriesButton()?.textContent).toBe(TEXTS.generateHdForSeries(3));

    await user.click(within(series).getByRole('button', { name: TEXTS.selectSeries }));
    expect(onSelectSeries).toHaveBeenCalledWith('slate-9f3a');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('a single image has no series part and no HD for the series', () => {
    const single: LdImage = { ...face(1), metadata: { kseed: '7', latent_width: 1024 } };
    renderModal({ image: single, onSelectSeries: vi.fn() });
    expect(screen.queryByLabelText('Series')).toBeNull();
    expect(screen.queryByRole('button', { name: TEXTS.selectSeries })).toBeNull();
    expect(seriesButton()).toBeNull();
  });
});
