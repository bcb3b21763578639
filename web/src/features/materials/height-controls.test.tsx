// @vitest-environment jsdom
import {
  API_ROUTES,
  errorText,
  MATERIAL_MAPS_TEXTS as T,
  shownErrorText,
  type HeightSettings,
  type MaterialMapsStatus,
} from '@tessera/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { finishedMaps } from './fixtures';
import { MaterialMapsSection } from './material-maps-section';

// The height controls of the material maps section (issue 26, part 4), against a server that
// answers as the real one: the stored settings shown, a remake ordered with the new ones.

const MADE = '2026-03-01T10:00:00.000Z';
const REMADE = '2026-03-01T10:05:00.000Z';

function made(height: HeightSettings, madeAt: string): MaterialMapsStatus {
  return finishedMaps('bricks', { height, madeAt });
}

/**
 * The server: the status is `shown` until an order; an order answers the job queued with the
 * maps shown, then one poll sees it run and the next sees the maps remade with its settings.
 * `refuse` answers orders with that status and error instead.
 */
function serve(shown: MaterialMapsStatus, refuse?: { status: number; error: string }) {
  const orders: { height?: HeightSettings }[] = [];
  let after: MaterialMapsStatus[] = [];
  const fetch = vi.fn((path: string, init?: RequestInit) => {
    if (path === API_ROUTES.materialMapsOrder) {
      const order = JSON.parse(String(init?.body)) as { height: HeightSettings };
      orders.push(order);
      if (refuse) {
        return Promise.resolve(new Response(JSON.stringify({ error: refuse.error }), refuse));
      }
      const queued = { ...shown, job: { id: 'j2', status: 'queued' as const, percent: 0 } };
      after = [
        { ...queued, job: { id: 'j2', status: 'in_progress', percent: 50 } },
        { ...made(order.height, REMADE), job: { id: 'j2', status: 'finished', percent: 100 } },
      ];
      return Promise.resolve(new Response(JSON.stringify(queued), { status: 202 }));
    }
    const next = after.shift();
    if (next) shown = next;
    return Promise.resolve(new Response(JSON.stringify(shown), { status: 200 }));
  });
  vi.stubGlobal('fetch', fetch);
  return { orders };
}

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MaterialMapsSection kind="ld" image="bricks.png" />
    </QueryClientProvider>,
  );
}

const invert = () => screen.getByRole<HTMLInputElement>('checkbox', { name: T.invertHeight });
const strength = () => screen.getByRole<HTMLInputElement>('slider', { name: T.heightStrength });
const heightMap = () => screen.getByRole<HTMLImageElement>('img', { name: T.heightMap });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the height controls', () => {
  it('show the settings the maps were made with', async () => {
    serve(made({ invert: true, strength: 2.5 }, MADE));
    show();
    await waitFor(() => expect(invert().checked).toBe(true));
    expect(strength().value).toBe('2.5');
    expect([strength().min, strength().max, strength().step]).toEqual(['0.25', '4', '0.25']);
    expect(strength().getAttribute('aria-valuetext')).toBe('×2,5');
    expect(screen.queryByText(T.settingsChanged)).toBeNull();
  });

  it('remake the maps with the settings changed; the maps shown stay until the new ones are made', async () => {
    const server = serve(made({ invert: false, strength: 1 }, MADE));
    show();
    await waitFor(() => expect(heightMap().src).toContain('bricks_ld_height.preview.png'));
    const before = heightMap().src;
    expect(new URL(before).searchParams.get('v')).toBe(MADE);

    await userEvent.click(invert());
    fireEvent.change(strength(), { target: { value: '3' } });
    expect(screen.getByText('×3')).toBeTruthy();
    expect(screen.getByText(T.settingsChanged)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: T.remake }));
    expect(server.orders).toEqual([
      { kind: 'ld', image: 'bricks.png', height: { invert: true, strength: 3 } },
    ]);

    // While they are made: the controls wait, the old height map is still shown.
    await screen.findByRole('button', { name: /^Generando mapas…/ });
    expect(invert().matches(':disabled')).toBe(true);
    expect(heightMap().src).toBe(before);

    // Made: the new height map, at an address the browser has not kept a copy of.
    await waitFor(() => expect(heightMap().src).not.toBe(before), { timeout: 3000 });
    expect(new URL(heightMap().src).searchParams.get('v')).toBe(REMADE);
    expect(invert().checked).toBe(true);
    expect(strength().value).toBe('3');
    expect(screen.queryByText(T.settingsChanged)).toBeNull();
    const link = screen.getByRole('link', { name: T.maps.height });
    expect(new URL(link.getAttribute('href') ?? '', 'http://x').searchParams.get('v')).toBe(REMADE);
  });

  it('order the first maps with the settings chosen before any were made', async () => {
    const server = serve({
      job: null,
      maps: [],
      seamless: false,
      height: made({ invert: false, strength: 1 }, MADE).height,
    });
    show();
    await userEvent.click(await screen.findByRole('checkbox', { name: T.invertHeight }));
    await userEvent.click(screen.getByRole('button', { name: T.generate }));
    expect(server.orders[0]?.height).toEqual({ invert: true, strength: 1 });
  });

  it('say why a remake was refused', async () => {
    const error = errorText('MAPS_HEIGHT_BUSY');
    serve(made({ invert: false, strength: 1 }, MADE), { status: 409, error });
    show();
    await waitFor(() => expect(heightMap()).toBeTruthy());
    await userEvent.click(invert());
    await userEvent.click(screen.getByRole('button', { name: T.remake }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      shownErrorText('es', 'MAPS_HEIGHT_BUSY'),
    );
  });
});
