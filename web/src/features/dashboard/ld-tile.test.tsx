// @vitest-environment jsdom
import { GALLERY_TEXTS } from '@tessera/contract';
import type { LdImage } from '@tessera/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSelection } from '../../components/gallery/selection';
import { MessagingProvider } from '../../lib/messaging';
import { LdTile } from './ld-tile';

/** Which thumbnails rendered: a tile that renders again renders its thumbnail again. */
const rendered: string[] = [];
vi.mock('../../components/gallery/thumbnail', () => ({
  Thumbnail: ({ alt }: { alt: string }) => {
    rendered.push(alt);
    return <img alt={alt} />;
  },
}));

afterEach(() => {
  cleanup();
  rendered.length = 0;
});

const image = (filename: string, tags: string[] = []): LdImage => ({
  filename,
  thumbnail: `/api/images/ld/thumbnail/${filename}`,
  metadata: {},
  tags,
});

/** Tiles wired as the Dashboard wires them: stable callbacks, selection by file name. */
function Tiles({ initial }: { initial: LdImage[] }) {
  const [images, setImages] = useState(initial);
  const { selected, toggle } = useSelection();
  const noop = useState(() => () => undefined)[0];
  // What an assign-tag answer does to the cached list: a new object for that image only.
  const tagLast = () =>
    setImages((list) =>
      list.map((item, i) =>
        i === list.length - 1 ? { ...item, tags: [...item.tags, 't1'] } : item,
      ),
    );
  return (
    <div role="list">
      <button type="button" onClick={tagLast}>
        Tag the last image
      </button>
      {images.map((item, i) => (
        <LdTile
          key={item.filename}
          image={item}
          top={i * 100}
          left={0}
          width={100}
          height={100}
          selected={selected.has(item.filename)}
          busy={false}
          onOpen={noop}
          onToggleSelect={toggle}
          onAssignTags={noop}
          onDelete={noop}
          onToggleStar={noop}
          onSelectSeries={noop}
        />
      ))}
    </div>
  );
}

function renderTiles(images: LdImage[]) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MessagingProvider client={null}>
        <Tiles initial={images} />
      </MessagingProvider>
    </QueryClientProvider>,
  );
}

describe('grid tiles at scale', () => {
  it('[D7] selecting an image re-renders that tile only', async () => {
    renderTiles([image('a.png'), image('b.png'), image('c.png')]);
    expect(rendered).toEqual(['a.png', 'b.png', 'c.png']);
    rendered.length = 0;
    await userEvent
      .setup()
      .click(screen.getByRole('checkbox', { name: GALLERY_TEXTS.select('b.png') }));
    expect(rendered).toEqual(['b.png']);
    expect(screen.getByRole('checkbox', { name: GALLERY_TEXTS.select('b.png') })).toHaveProperty(
      'checked',
      true,
    );
  });

  it('[T8] a tag change on one image re-renders that tile only', async () => {
    renderTiles([image('a.png'), image('b.png'), image('c.png')]);
    rendered.length = 0;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Tag the last image' }));
    expect(rendered).toEqual(['c.png']);
  });

  it('[D7] every control has an accessible name', () => {
    renderTiles([image('a.png')]);
    expect(screen.getByRole('button', { name: 'a.png' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: GALLERY_TEXTS.select('a.png') })).toBeTruthy();
    expect(screen.getByRole('button', { name: GALLERY_TEXTS.assignTags('a.png') })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete a.png' })).toBeTruthy();
    expect(
      screen
        .getByRole('button', { name: GALLERY_TEXTS.star('a.png') })
        .getAttribute('aria-pressed'),
    ).toBe('false');
  });
});
