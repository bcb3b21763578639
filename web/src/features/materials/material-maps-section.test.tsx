// @vitest-environment jsdom
import {
  API_ROUTES,
  DEFAULT_HEIGHT_SETTINGS,
  MATERIAL_MAPS_TEXTS as T,
  MATERIAL_TEXTS,
  ZIP_TEXTS,
  type MaterialMapsStatus,
} from '@tessera/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { finishedMaps, NO_MAPS } from './fixtures';
import { MaterialMapsSection } from './material-maps-section';

const FINISHED = finishedMaps('waves');

/** The server as the section sees it: each status poll answers the next of `answers`. */
function serve(answers: MaterialMapsStatus[]) {
  const orders: unknown[] = [];
  let polls = 0;
  const fetch = vi.fn((path: string, init?: RequestInit) => {
    let body: MaterialMapsStatus;
    let status = 200;
    if (path === API_ROUTES.materialMapsOrder) {
      orders.push(JSON.parse(String(init?.body)));
      body = { ...NO_MAPS, job: { id: 'j1', status: 'queued', percent: 0 } };
      status = 202;
    } else {
      body = answers[Math.min(polls++, answers.length - 1)] ?? FINISHED;
    }
    return Promise.resolve(new Response(JSON.stringify(body), { status }));
  });
  vi.stubGlobal('fetch', fetch);
  return { orders, fetch };
}

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MaterialMapsSection kind="ld" image="waves.png" />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the material maps section', () => {
  it('orders the maps, shows the percent while they are made, then a link per map', async () => {
    const running: MaterialMapsStatus = {
      ...NO_MAPS,
      job: { id: 'j1', status: 'in_progress', percent: 40 },
    };
    const server = serve([NO_MAPS, running, running, FINISHED]);
    show();
    await userEvent.click(await screen.findByRole('button', { name: T.generate }));
    expect(server.orders).toEqual([
      { kind: 'ld', image: 'waves.png', height: DEFAULT_HEIGHT_SETTINGS },
    ]);
    const busy = await screen.findByRole('button', { name: T.generating(40) }, { timeout: 3000 });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    const links = await screen.findAllByRole('link', {}, { timeout: 3000 });
    expect(links.map((a) => a.textContent)).toEqual([
      'Altura',
      'Normal (OpenGL)',
      'Normal (DirectX)',
      'Rugosidad',
      'Oclusión ambiental',
      // The material package (issue 26, part 3: material-package-download.test.tsx).
      MATERIAL_TEXTS.download,
    ]);
    expect(links[1]?.getAttribute('href')).toBe('/api/images/maps/waves_ld_normal-opengl.png');
    expect(links[1]?.getAttribute('download')).toBe('waves_ld_normal-opengl.png');
    const enabled = (name: string) =>
      !(screen.getByRole('button', { name }) as HTMLButtonElement).disabled;
    expect(enabled(T.remake)).toBe(true);
    expect(enabled(ZIP_TEXTS.download)).toBe(true);
  });

  it('says why the maps failed', async () => {
    serve([
      {
        job: { id: 'j1', status: 'error', percent: 10, error: 'Disk full' },
        maps: [],
        seamless: false,
        height: DEFAULT_HEIGHT_SETTINGS,
      },
    ]);
    show();
    expect((await screen.findByRole('alert')).textContent).toBe('Disk full');
    await waitFor(() =>
      expect((screen.getByRole('button', { name: T.generate }) as HTMLButtonElement).disabled).toBe(
        false,
      ),
    );
  });
});
