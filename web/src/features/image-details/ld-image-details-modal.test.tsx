// @vitest-environment jsdom
import {
  DIALOG_TEXTS,
  PROMPT_CHIP_TEXTS,
  promptColour,
  SEAMLESS_TEXTS,
  SYNTHESIS_TEXTS,
  TEXTS,
} from '@tessera/contract';
import type { LdImage } from '@tessera/contract';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useHdJobs } from '../hd';
import { LdImageDetailsModal } from './ld-image-details-modal';
import {
  TestProviders,
  fakeClient,
  hdJobStore,
  resetAfterTest,
  installDialogPolyfill,
  stubFetch,
} from '../hd/testing';
import type { FakeClient, FetchCall } from '../hd/testing';

/** A colour of the vocabulary as the browser computes a background: "rgb(194, 100, 60)". */
function cssColour(id: string): string {
  const hex = promptColour(id)?.hex ?? '';
  const channels = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  return `rgb(${channels.join(', ')})`;
}

const TAGS = [
  { id: 't1', name: 'Brick', color: '#aa0000' },
  { id: 't2', name: 'Warm', color: '#ffaa00' },
  { id: 't3', name: 'Unused', color: '#000000' },
];

const METADATA = {
  input_image_path: 'reference-1.png',
  cliptextencode_585: 'red brick wall, weathered',
  cliptextencode_716: 'blurry, text',
  ksampler_cfg: 3.5,
  ksampler_denoise: 0.8,
  ipadapter_weight: 0.9,
  style: 0.25,
  kseed: '123456789',
  latent_width: 1024,
  latent_height: 1024,
};

function ldImage(overrides: Partial<LdImage> = {}): LdImage {
  return {
    filename: 'brick.png',
    thumbnail: '/api/images/ld/thumbnail/brick.png',
    metadata: METADATA,
    tags: ['t1', 't2'],
    ...overrides,
  };
}

/** What stays mounted in the app while modals come and go: the layout's toast keeps the record. */
function KeepHdRecord() {
  useHdJobs();
  return null;
}

let client: FakeClient;
let calls: FetchCall[];
let polled: { status: string; percent: number; output_image?: string } | undefined;

function renderModal(image = ldImage(), onClose = vi.fn()) {
  const view = render(
    <TestProviders client={client}>
      <KeepHdRecord />
      <LdImageDetailsModal image={image} onClose={onClose} />
    </TestProviders>,
  );
  return { ...view, onClose };
}

function fieldValue(label: string): string {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? '';
}

function sizeOptions(): string[] {
  const select = screen.getByLabelText('Output Size');
  return within(select)
    .getAllByRole('option')
    .map((option) => (option as HTMLOptionElement).value);
}

beforeAll(installDialogPolyfill);

beforeEach(() => {
  hdJobStore.reset();
  client = fakeClient({ tags: TAGS });
  polled = undefined;
  calls = stubFetch(({ path }) => {
    if (path === '/api/query/hd-jobs') return [200, { jobs: [], paused: false }];
    if (path === '/api/query/status-generate-image' && polled) return [200, polled];
    return undefined;
  });
});

afterEach(resetAfterTest);

describe('LdImageDetailsModal', () => {
  it('[M1] shows the name, reference image, prompts, weights, style × 100, seed and tags', async () => {
    renderModal();
    const dialog = screen.getByRole('dialog', { name: 'brick.png' });
    expect(dialog.hasAttribute('open')).toBe(true);
    expect(screen.getByRole('heading', { name: 'brick.png' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Reference image' }).getAttribute('src')).toBe(
      '/api/images/input/reference-1.png',
    );
    expect(fieldValue('Positive prompt')).toBe('red brick wall, weathered');
    expect(fieldValue('Negative prompt')).toBe('blurry, text');
    expect(fieldValue('Imagination weight')).toBe('3,5');
    expect(fieldValue('Similarity')).toBe('0,8');
    expect(fieldValue('Prompt adherence')).toBe('0,9');
    expect(fieldValue('Style weight')).toBe('25');
    expect(fieldValue('Seed')).toBe('123456789');
    const tagList = await screen.findByRole('list', { name: 'Tags' });
    expect(
      within(tagList)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Brick', 'Warm']);
  });

  it('[M1][M7] the seed falls back to seed, and missing fields show a dash', () => {
    renderModal(ldImage({ metadata: { seed: 77 }, tags: [] }));
    expect(fieldValue('Seed')).toBe('77');
    expect(fieldValue('Positive prompt')).toBe('-');
    expect(fieldValue('Style weight')).toBe('-');
    expect(fieldValue('Tags')).toBe('-');
    expect(screen.queryByRole('img', { name: 'Reference image' })).toBeNull();
  });

  it.each([
    [1024, 1024, ['30x30', '60x60', '90x90', '100x100', '120x120']],
    [1448, 724, ['30x60', '45x90', '60x120', '90x180', '100x200', '120x240']],
    [677, 1548, ['160x70', '320x140']],
    [2506, 418, ['120x20']],
    [1000, 1000, []],
  ])('[M2] a %ix%i image offers the sizes of its format', (width, height, sizes) => {
    renderModal(ldImage({ metadata: { ...METADATA, latent_width: width, latent_height: height } }));
    expect(sizeOptions()).toEqual(['', ...sizes]);
  });

  it("[M2] without latent size it goes by the picture's own size", () => {
    const withoutLatent: Record<string, unknown> = { ...METADATA };
    delete withoutLatent['latent_width'];
    delete withoutLatent['latent_height'];
    renderModal(ldImage({ metadata: withoutLatent }));
    expect(sizeOptions()).toEqual(['']);
    const picture = screen.getByRole('img', { name: 'brick.png' });
    Object.defineProperty(picture, 'naturalWidth', { value: 2506 });
    Object.defineProperty(picture, 'naturalHeight', { value: 418 });
    fireEvent.load(picture);
    expect(sizeOptions()).toEqual(['', '120x20']);
  });

  it('[M3][H1][H2][M7] Generate HD sends the command with the factors and seed as strings, and closes', async () => {
    const user = userEvent.setup();
    const { onClose } = renderModal();
    await user.selectOptions(screen.getByLabelText('Output Size'), '60x60');
    await user.click(screen.getByRole('button', { name: 'Generate HD' }));
    expect(client.sent).toHaveLength(1);
    const command = client.sent[0];
    expect(command).toEqual({
      id: expect.any(String),
      user: 'alice',
      image: 'brick.png',
      rescale_factor_cr711: '1.74',
      scale_by_latent707: '1',
      rescale_factor_cr701: '1.5',
      scale_by_image692: '2.7',
      use_fixed_seed: 'true',
      fixed_seed_value: '123456789',
      seed: '123456789',
    });
    expect(Object.values(command ?? {}).every((value) => typeof value === 'string')).toBe(true);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("[M7] an image without a seed orders HD with seed '10'", async () => {
    const user = userEvent.setup();
    renderModal(ldImage({ metadata: { latent_width: 2506, latent_height: 418 } }));
    await user.selectOptions(screen.getByLabelText('Output Size'), '120x20');
    await user.click(screen.getByRole('button', { name: 'Generate HD' }));
    expect(client.sent[0]).toMatchObject({
      fixed_seed_value: '10',
      seed: '10',
      rescale_factor_cr701: '1.7',
      scale_by_image692: '2',
    });
  });

  it("[M6] without a valid size it only logs 'Debe seleccionar una opción válida.'", async () => {
    const user = userEvent.setup();
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const { onClose } = renderModal();
    await user.click(screen.getByRole('button', { name: 'Generate HD' }));
    expect(log).toHaveBeenCalledWith(TEXTS.hdSizeRequired);
    expect(client.sent).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('[M6] an image of unknown format cannot order HD: it only logs', async () => {
    const user = userEvent.setup();
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    renderModal(ldImage({ metadata: { latent_width: 10, latent_height: 10 } }));
    await user.click(screen.getByRole('button', { name: 'Generate HD' }));
    expect(log).toHaveBeenCalledWith('Debe seleccionar una opción válida.');
    expect(client.sent).toEqual([]);
  });

  it("[M4][M5] while the image's job runs the button is disabled with its percent; then the download link", () => {
    renderModal();
    client.emit({ id: 'other', image: 'other.png', status: 'in_progress', percent: 90 });
    expect(screen.getByRole('button', { name: 'Generate HD' })).toHaveProperty('disabled', false);

    client.emit({ id: 'j1', image: 'brick.png', status: 'queued', percent: 0 });
    expect(screen.getByRole('button', { name: 'Generating HD... (0%)' })).toHaveProperty(
      'disabled',
      true,
    );
    client.emit({ id: 'j1', image: 'brick.png', status: 'in_progress', percent: 42 });
    const busy = screen.getByRole('button', { name: 'Generating HD... (42%)' });
    expect(busy).toHaveProperty('disabled', true);
    expect(screen.queryByRole('link', { name: 'Download HD Image' })).toBeNull();

    client.emit({
      id: 'j1',
      image: 'brick.png',
      status: 'finished',
      percent: 100,
      output_image: 'brick_30x30.png',
    });
    const link = screen.getByRole('link', { name: 'Download HD Image' });
    expect(link.getAttribute('href')).toBe('/api/images/hd/brick_30x30.png');
    expect(link.hasAttribute('download')).toBe(true);
    expect(screen.getByRole('button', { name: 'Generate HD' })).toHaveProperty('disabled', false);
  });

  it('[M4] reopened after ordering, the modal shows the order running', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const { rerender } = renderModal(ldImage(), onClose);
    await user.selectOptions(screen.getByLabelText('Output Size'), '30x30');
    await user.click(screen.getByRole('button', { name: 'Generate HD' }));
    // The screen that opened it unmounts it, then opens it again.
    rerender(
      <TestProviders client={client}>
        <KeepHdRecord />
      </TestProviders>,
    );
    rerender(
      <TestProviders client={client}>
        <KeepHdRecord />
        <LdImageDetailsModal image={ldImage()} onClose={onClose} />
      </TestProviders>,
    );
    expect(await screen.findByRole('button', { name: 'Generating HD... (0%)' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('[H11] while a job runs the status is polled every 3 s', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    renderModal();
    await waitFor(() =>
      expect(calls.some((call) => call.path === '/api/query/hd-jobs')).toBe(true),
    );
    const polls = () => calls.filter((call) => call.path === '/api/query/status-generate-image');

    await act(() => vi.advanceTimersByTimeAsync(9000));
    expect(polls()).toHaveLength(0);

    client.emit({ id: 'j1', image: 'brick.png', status: 'queued', percent: 0 });
    polled = { status: 'in_progress', percent: 55 };
    await act(() => vi.advanceTimersByTimeAsync(2999));
    expect(polls()).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(polls()).toHaveLength(1);
    expect(await screen.findByRole('button', { name: 'Generating HD... (55%)' })).toBeTruthy();

    polled = { status: 'finished', percent: 100, output_image: 'brick_30x30.png' };
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(await screen.findByRole('link', { name: 'Download HD Image' })).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(9000));
    expect(polls()).toHaveLength(2);
  });

  it('closes with the Close button and when the dialog closes (Escape)', async () => {
    const user = userEvent.setup();
    const first = renderModal();
    await user.click(screen.getByRole('button', { name: DIALOG_TEXTS.close }));
    expect(first.onClose).toHaveBeenCalledTimes(1);
    cleanup();

    const second = renderModal();
    act(() => (screen.getByRole('dialog') as HTMLDialogElement).close());
    expect(second.onClose).toHaveBeenCalledTimes(1);
  });

  it('[M1] offers the 3×3 preview of the image', async () => {
    const user = userEvent.setup();
    renderModal();
    const toggle = screen.getByRole('button', { name: SEAMLESS_TEXTS.tiledPreview });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('img', { name: SEAMLESS_TEXTS.tiledImage('brick.png') })).toBeTruthy();
  });
});

describe("the builtin engine's record (issue 27)", () => {
  const chips = (name: string) =>
    within(screen.getByRole('list', { name }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);

  it('lists the words each prompt was understood by, and the synthesis mode used', () => {
    renderModal(
      ldImage({
        metadata: {
          ...METADATA,
          cliptextencode_585: 'piezas grandes terracota pulido, mossy wall',
          cliptextencode_716: 'blanco roto',
          prompt_terms: {
            positive: [
              { kind: 'scale', id: 'large', text: 'piezas grandes' },
              { kind: 'colour', id: 'terracotta', modifiers: [], text: 'terracota' },
              { kind: 'finish', id: 'polished', text: 'pulido' },
            ],
            negative: [{ kind: 'colour', id: 'off-white', modifiers: [], text: 'blanco roto' }],
          },
          synthesis: 'auto',
          synthesis_used: 'quilting',
        },
      }),
    );
    expect(chips(PROMPT_CHIP_TEXTS.understoodWords)).toEqual([
      `${PROMPT_CHIP_TEXTS.kinds.scale}piezas grandes`,
      'terracota',
      `${PROMPT_CHIP_TEXTS.kinds.finish}pulido`,
    ]);
    const understood = screen.getByRole('list', { name: PROMPT_CHIP_TEXTS.understoodWords });
    const swatch = within(understood).getByRole('img', { name: PROMPT_CHIP_TEXTS.kinds.colour });
    expect(swatch.style.background).toBe(cssColour('terracotta'));
    expect(chips(PROMPT_CHIP_TEXTS.excludedWords)).toEqual(['blanco roto']);
    expect(fieldValue(SYNTHESIS_TEXTS.label)).toBe(
      `${SYNTHESIS_TEXTS.names.quilting} (${SYNTHESIS_TEXTS.chosenAutomatically})`,
    );
  });

  it('says when no word was understood, and shows nothing for an image the engine kept no record of', () => {
    const { unmount } = renderModal(
      ldImage({
        metadata: { ...METADATA, prompt_terms: { positive: [], negative: [] } },
      }),
    );
    expect(fieldValue(PROMPT_CHIP_TEXTS.understoodWords)).toBe('-');
    expect(fieldValue(PROMPT_CHIP_TEXTS.excludedWords)).toBe('-');
    unmount();
    renderModal(ldImage({ metadata: { ...METADATA, synthesis: 'blending' } }));
    expect(screen.queryByText(PROMPT_CHIP_TEXTS.understoodWords)).toBeNull();
    expect(screen.queryByText(SYNTHESIS_TEXTS.label)).toBeNull();
  });
});
