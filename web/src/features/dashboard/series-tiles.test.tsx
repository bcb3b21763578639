// @vitest-environment jsdom
import { GALLERY_TEXTS, seriesMetadata, TEXTS } from '@tessera/contract';
import type { LdImage } from '@tessera/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { SelectionBar } from '../../components/gallery/selection-bar';
import { useGalleryWiring } from '../../components/gallery/use-gallery-wiring';
import { MessagingProvider } from '../../lib/messaging';
import { LdTile } from './ld-tile';

/** Any face's badge ("Cara 2/4"): TEXTS.seriesFaceBadge's words. */
const ANY_BADGE = new RegExp(`^${TEXTS.seriesFaceBadge(0, 0).replace('0/0', '\\d+/\\d+')}$`);

// Faces of a series in the Dashboard's grid (issue 25): the badge, and Select series feeding the
// selection the ZIP tools download.

afterEach(cleanup);

const noop = () => undefined;

function face(seriesId: string, n: number, faces: number): LdImage {
  const filename = `${seriesId}-f${n}.png`;
  return {
    filename,
    thumbnail: `/api/images/ld/thumbnail/${filename}`,
    metadata: seriesMetadata({ seriesId, face: n, faces }),
    tags: [],
  };
}

const single: LdImage = {
  filename: 'single.png',
  thumbnail: '/api/images/ld/thumbnail/single.png',
  metadata: {},
  tags: [],
};

/** The grid's tiles wired as the Dashboard wires them, with its selection bar. */
function Grid({ images, shown = images }: { images: LdImage[]; shown?: LdImage[] }) {
  const gallery = useGalleryWiring({
    images,
    shown,
    deleteOne: async () => undefined,
    onDeleted: noop,
  });
  return (
    <>
      {gallery.selectedVisible.length > 0 && (
        <SelectionBar count={gallery.selectedVisible.length} onClear={gallery.clearSelection}>
          {null}
        </SelectionBar>
      )}
      <div role="list" aria-label="Images">
        {shown.map((image, i) => (
          <LdTile
            key={image.filename}
            image={image}
            top={i * 100}
            left={0}
            width={200}
            height={100}
            selected={gallery.selected.has(image.filename)}
            busy={false}
            onOpen={noop}
            onToggleSelect={gallery.onToggleSelect}
            onAssignTags={noop}
            onDelete={noop}
            onToggleStar={noop}
            onSelectSeries={gallery.onSelectSeries}
          />
        ))}
      </div>
    </>
  );
}

function renderGrid(images: LdImage[], shown?: LdImage[]) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MessagingProvider client={null}>
        <Grid images={images} shown={shown} />
      </MessagingProvider>
    </QueryClientProvider>,
  );
}

const tileOf = (filename: string) =>
  screen.getByRole('button', { name: filename }).closest<HTMLElement>('[role="listitem"]');
const checked = () =>
  screen
    .getAllByRole<HTMLInputElement>('checkbox')
    .filter((box) => box.checked)
    .map((box) => box.getAttribute('aria-label'));

describe('series tiles (issue 25)', () => {
  it('a face shows "Face k/N" in its series\' colour; a single image shows no badge', () => {
    renderGrid([face('s1', 1, 2), face('s1', 2, 2), face('s2', 1, 3), single]);
    const badge = (filename: string) =>
      within(tileOf(filename) as HTMLElement).queryByText(ANY_BADGE);
    expect(badge('s1-f1.png')?.textContent).toBe(TEXTS.seriesFaceBadge(1, 2));
    expect(badge('s1-f2.png')?.textContent).toBe(TEXTS.seriesFaceBadge(2, 2));
    expect(badge('s2-f1.png')?.textContent).toBe(TEXTS.seriesFaceBadge(1, 3));
    expect(badge('single.png')).toBeNull();
    const hue = (filename: string) =>
      (badge(filename) as HTMLElement).style.getPropertyValue('--series-hue');
    expect(hue('s1-f1.png')).toBe(hue('s1-f2.png'));
    expect(hue('s1-f1.png')).not.toBe(hue('s2-f1.png'));
    expect(
      screen.queryByRole('button', { name: GALLERY_TEXTS.selectSeriesOf('single.png') }),
    ).toBeNull();
  });

  it('Select series selects every face of the series, keeps what was selected, and nothing more', async () => {
    const user = userEvent.setup();
    const images = [face('s1', 1, 3), face('s2', 1, 2), face('s1', 2, 3), face('s1', 3, 3), single];
    renderGrid(images);
    await user.click(screen.getByRole('checkbox', { name: GALLERY_TEXTS.select('single.png') }));
    await user.click(
      screen.getByRole('button', { name: GALLERY_TEXTS.selectSeriesOf('s1-f2.png') }),
    );
    expect(checked()).toEqual([
      GALLERY_TEXTS.select('s1-f1.png'),
      GALLERY_TEXTS.select('s1-f2.png'),
      GALLERY_TEXTS.select('s1-f3.png'),
      GALLERY_TEXTS.select('single.png'),
    ]);
    expect(screen.getByText(GALLERY_TEXTS.selectedCount(4))).toBeTruthy();
    // Again: the faces stay selected (it selects, it does not toggle).
    await user.click(
      screen.getByRole('button', { name: GALLERY_TEXTS.selectSeriesOf('s1-f1.png') }),
    );
    expect(screen.getByText(GALLERY_TEXTS.selectedCount(4))).toBeTruthy();
  });

  it('selects only the faces in view (a filter left one out)', async () => {
    const user = userEvent.setup();
    const images = [face('s1', 1, 3), face('s1', 2, 3), face('s1', 3, 3)];
    renderGrid(images, [images[0] as LdImage, images[2] as LdImage]);
    await user.click(
      screen.getByRole('button', { name: GALLERY_TEXTS.selectSeriesOf('s1-f1.png') }),
    );
    expect(checked()).toEqual([
      GALLERY_TEXTS.select('s1-f1.png'),
      GALLERY_TEXTS.select('s1-f3.png'),
    ]);
    expect(screen.getByText(GALLERY_TEXTS.selectedCount(2))).toBeTruthy();
  });
});
