// @vitest-environment jsdom
import { INPUT_TEXTS, SCREEN_PATHS, TEXTS } from '@tessera/contract';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithApp } from '../generate/testing';
import { InputScreen } from './input-screen';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function setUp(inputs: unknown) {
  const server = fakeServer({ inputs });
  vi.stubGlobal('fetch', server.fetch);
  renderWithApp(server.client, SCREEN_PATHS.input, [
    { path: SCREEN_PATHS.input, element: <InputScreen /> },
    { path: SCREEN_PATHS.generate, element: <p>Generate</p> },
  ]);
  return server;
}

describe('References (/input)', () => {
  it('lists each uploaded reference with the images generated from it', async () => {
    setUp({
      inputs: [
        {
          filename: 'slate-9f.png',
          created_at: '2025-03-02T10:00:00.000Z',
          images: ['slate-1.png', 'slate-2.png'],
        },
        { filename: 'oak-1a.jpg', created_at: '2025-03-01T10:00:00.000Z', images: [] },
      ],
    });
    const list = await screen.findByRole('list', { name: INPUT_TEXTS.title });
    const cards = within(list).getAllByRole('listitem', { name: /\.(png|jpg)$/ });
    const [slate, oak] = cards as [HTMLElement, HTMLElement];
    expect(cards.map((card) => card.querySelector('h2')?.textContent)).toEqual([
      'slate-9f.png',
      'oak-1a.jpg',
    ]);
    expect(within(slate).getByText(new RegExp(INPUT_TEXTS.generatedCount(2)))).toBeTruthy();
    expect(within(oak).getByText(new RegExp(INPUT_TEXTS.generatedCount(0)))).toBeTruthy();
    const made = within(slate).getByRole('list', {
      name: INPUT_TEXTS.generatedFrom('slate-9f.png'),
    });
    expect(
      within(made)
        .getAllByRole('img')
        .map((image) => image.getAttribute('src')),
    ).toEqual(['/api/images/ld/thumbnail/slate-1.png', '/api/images/ld/thumbnail/slate-2.png']);
    expect(slate.querySelector('img')?.getAttribute('src')).toBe('/api/images/input/slate-9f.png');
  });

  it('"Use as reference" opens Generate with that reference', async () => {
    setUp({
      inputs: [{ filename: 'slate 9f.png', created_at: '2025-03-02T10:00:00Z', images: [] }],
    });
    await userEvent.click(
      await screen.findByRole('button', { name: INPUT_TEXTS.useFile('slate 9f.png') }),
    );
    expect(screen.getByRole('status', { name: 'Location' }).textContent).toBe(
      '/generate?reference=slate+9f.png',
    );
  });

  it('says when there are no references yet, and when the list cannot be loaded', async () => {
    setUp({ inputs: [] });
    expect(await screen.findByText(INPUT_TEXTS.empty)).toBeTruthy();
    cleanup();
    setUp(new Response('{}', { status: 500 }));
    expect((await screen.findByRole('alert')).textContent).toBe(TEXTS.imageListError);
  });
});
