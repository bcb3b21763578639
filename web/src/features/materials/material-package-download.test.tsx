// @vitest-environment jsdom
import { MATERIAL_MAPS_TEXTS, MATERIAL_TEXTS, materialPackageUrl } from '@tessera/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { finishedMaps, NO_MAPS } from './fixtures';
import { MaterialMapsSection } from './material-maps-section';
import { MaterialPackageDownload } from './material-package-download';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const link = () => screen.getByRole('link', { name: MATERIAL_TEXTS.download });

describe('Download material', () => {
  it("links an LD image's package at the chosen preset and tile size", async () => {
    const user = userEvent.setup();
    render(<MaterialPackageDownload kind="ld" image="waves.png" tileSizes={['30x60', '45x90']} />);
    expect(link().getAttribute('href')).toBe(
      materialPackageUrl({
        kind: 'ld',
        image: 'waves.png',
        preset: 'standard',
        lang: 'es',
        size: '30x60',
      }),
    );
    // A plain download: the browser saves what the server streams.
    expect(link().hasAttribute('download')).toBe(true);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Estándar (glTF, MaterialX, todos los mapas)',
      'Unreal Engine (ORM)',
      'Unity HDRP (mask map)',
      '30x60 cm',
      '45x90 cm',
    ]);

    await user.selectOptions(screen.getByLabelText(MATERIAL_TEXTS.preset), 'unity-hdrp');
    await user.selectOptions(screen.getByLabelText(MATERIAL_TEXTS.tileSize), '45x90');
    expect(link().getAttribute('href')).toBe(
      materialPackageUrl({
        kind: 'ld',
        image: 'waves.png',
        preset: 'unity-hdrp',
        lang: 'es',
        size: '45x90',
      }),
    );
  });

  it("offers no tile size for an HD image: its package takes the image's own", () => {
    render(<MaterialPackageDownload kind="hd" image="waves-60x120.png" />);
    expect(screen.queryByLabelText(MATERIAL_TEXTS.tileSize)).toBeNull();
    expect(link().getAttribute('href')).toBe(
      materialPackageUrl({ kind: 'hd', image: 'waves-60x120.png', preset: 'standard', lang: 'es' }),
    );
    expect(screen.getByText(MATERIAL_TEXTS.note('hd'))).toBeTruthy();
  });

  it('says why there is none for a picture of no output format', () => {
    render(<MaterialPackageDownload kind="ld" image="photo.png" tileSizes={[]} />);
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText(MATERIAL_TEXTS.noTileSize)).toBeTruthy();
  });

  it('shows in the material maps section once the maps exist, not before', async () => {
    for (const [status, shown] of [
      [NO_MAPS, false],
      [finishedMaps('waves'), true],
    ] as const) {
      vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify(status))));
      render(
        <QueryClientProvider client={new QueryClient()}>
          <MaterialMapsSection kind="ld" image="waves.png" tileSizes={['30x60']} />
        </QueryClientProvider>,
      );
      await screen.findByRole('button', {
        name: shown ? MATERIAL_MAPS_TEXTS.remake : MATERIAL_MAPS_TEXTS.generate,
      });
      expect(screen.queryByRole('link', { name: MATERIAL_TEXTS.download }) !== null).toBe(shown);
      cleanup();
    }
  });
});
