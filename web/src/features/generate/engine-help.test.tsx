// @vitest-environment jsdom
import {
  API_ROUTES,
  ENGINE_HELP_TEXTS,
  PROMPT_CHIP_TEXTS,
  SCREEN_PATHS,
  SYNTHESIS_TEXTS,
  promptColour,
} from '@tessera/contract';
import type { PreviewEngine } from '@tessera/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { GenerateScreen } from './generate-screen';
import {
  fakeServer,
  renderGenerateScreen,
  renderWithApp,
  setUpGenerateScreenTests,
} from './testing';

/** A colour of the vocabulary as the browser computes a background: "rgb(194, 100, 60)". */
function cssColour(id: string): string {
  const hex = promptColour(id)?.hex ?? '';
  const channels = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  return `rgb(${channels.join(', ')})`;
}

// Issue 27 on the Generate screen: the words the builtin engine understood under each prompt, the
// help of each control on this server's engine, and the Synthesis select.

vi.mock('./image-size', () => ({ readImageSize: async () => ({ width: 512, height: 512 }) }));

setUpGenerateScreenTests();

/** The control's description (aria-describedby), as a screen reader reads it. */
function description(label: string): string {
  const ids = screen.getByLabelText(label).getAttribute('aria-describedby') ?? '';
  return ids
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

const chips = (name: string) =>
  within(screen.getByRole('list', { name }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

const HELP = ENGINE_HELP_TEXTS.controls;
const { understood, excluded, kinds } = PROMPT_CHIP_TEXTS;
/** The line under a prompt naming the words left to the AI engine. */
const OTHER_WORDS = new RegExp(`^${PROMPT_CHIP_TEXTS.otherWords('').split('(')[0]}`);

/** Waits for the engine's answer: the Similarity help shows once it is known. */
async function engineKnown(engine: PreviewEngine) {
  // The first render of a file waits on the loaded machine's transform: more than 1 s at times.
  await screen.findByText(HELP[engine].similarity, {}, { timeout: 5_000 });
}

describe('the prompt chips (builtin engine)', () => {
  it('show the understood words as typed, and name the words left to the AI engine', async () => {
    const { user } = renderGenerateScreen();
    await engineKnown('builtin');
    const positive = screen.getByLabelText('Positive Prompt');
    await user.type(positive, 'piezas grandes terracota');
    expect(chips(understood)).toEqual([`${kinds.scale}piezas grandes`, 'terracota']);
    expect(screen.queryByText(OTHER_WORDS)).toBeNull();

    await user.type(positive, ' pulido, mossy wall');
    expect(chips(understood)).toEqual([
      `${kinds.scale}piezas grandes`,
      'terracota',
      `${kinds.finish}pulido`,
    ]);
    const list = screen.getByRole('list', { name: understood });
    const swatch = within(list).getByRole('img', { name: kinds.colour });
    expect(swatch.style.background).toBe(cssColour('terracotta'));
    expect(screen.getByText(PROMPT_CHIP_TEXTS.otherWords('mossy, wall'))).toBeTruthy();

    // Emptied, the field shows no chips and no line.
    await user.clear(positive);
    expect(screen.queryByRole('list', { name: understood })).toBeNull();
    expect(screen.queryByText(OTHER_WORDS)).toBeNull();
  });

  it("say the negative prompt's words are excluded", async () => {
    const { user } = renderGenerateScreen();
    await engineKnown('builtin');
    await user.type(screen.getByLabelText('Negative Prompt'), 'Blanco roto, glossy people');
    expect(chips(excluded)).toEqual(['Blanco roto', `${kinds.finish}glossy`]);
    expect(screen.getByText(PROMPT_CHIP_TEXTS.otherWords('people'))).toBeTruthy();
    expect(screen.queryByRole('list', { name: understood })).toBeNull();
  });

  it('are not shown with ComfyUI, which reads every word', async () => {
    const { user } = renderGenerateScreen({ engine: 'comfyui' });
    await engineKnown('comfyui');
    await user.type(screen.getByLabelText('Positive Prompt'), 'terracotta mossy wall');
    expect(screen.queryByRole('list', { name: understood })).toBeNull();
    expect(screen.queryByText(OTHER_WORDS)).toBeNull();
    expect(description('Positive Prompt')).toBe(HELP.comfyui.positivePrompt);
  });
});

describe("each control's help on the engine", () => {
  it('says what the sliders do on the builtin engine, and marks nothing inert', async () => {
    renderGenerateScreen();
    await engineKnown('builtin');
    expect(description('Similarity')).toBe(HELP.builtin.similarity);
    expect(description('Prompt Adherence')).toMatch(/^Tamaño de parche/);
    expect(description('Imagination Weight')).toMatch(/^Variación/);
    expect(description('Style Weight')).toMatch(/^Estilización/);
    expect(description('Positive Prompt')).toBe(HELP.builtin.positivePrompt);
    expect(description('Negative Prompt')).toBe(HELP.builtin.negativePrompt);
    const mask = screen.getByRole('switch', { name: 'Mask' });
    const maskHelp = document.getElementById(mask.getAttribute('aria-describedby') ?? '');
    expect(maskHelp?.textContent).toBe(HELP.builtin.mask);
    expect(description(SYNTHESIS_TEXTS.label)).toBe(HELP.builtin.synthesis);
    expect(screen.queryByText(ENGINE_HELP_TEXTS.inert)).toBeNull();
  });

  it('says the AI meaning with ComfyUI, and marks Synthesis as doing nothing there', async () => {
    renderGenerateScreen({ engine: 'comfyui' });
    await engineKnown('comfyui');
    expect(description('Imagination Weight')).toBe(HELP.comfyui.imaginationWeight);
    expect(description('Prompt Adherence')).toMatch(/IP-Adapter/);
    expect(description(SYNTHESIS_TEXTS.label)).toBe(
      `${ENGINE_HELP_TEXTS.inert} ${HELP.comfyui.synthesis}`,
    );
    expect(screen.getAllByText(ENGINE_HELP_TEXTS.inert)).toHaveLength(1);
    const seamless = screen.getByRole('switch', { name: 'Seamless' });
    const help = document.getElementById(seamless.getAttribute('aria-describedby') ?? '');
    expect(help?.textContent).toBe(HELP.comfyui.tiling);
  });

  it('says nothing while the engine is not known (its query failed)', async () => {
    const server = fakeServer();
    const fetched: string[] = [];
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      fetched.push(String(input));
      return String(input) === API_ROUTES.engineInfo
        ? new Response('{"error":"down"}', { status: 503 })
        : server.fetch(input, init);
    });
    renderWithApp(server.client, SCREEN_PATHS.generate, [
      { path: SCREEN_PATHS.generate, element: <GenerateScreen pollIntervalMs={0} /> },
    ]);
    await waitFor(() => expect(fetched).toContain(API_ROUTES.engineInfo));
    await userEvent.setup().type(screen.getByLabelText('Positive Prompt'), 'terracotta');
    expect(screen.queryByRole('list', { name: understood })).toBeNull();
    expect(screen.getByLabelText('Similarity').getAttribute('aria-describedby')).toBeNull();
  });
});

describe('the Synthesis select', () => {
  it('offers Automatic (the default), Quilting and Blending, and sends a mode only when chosen', async () => {
    const { server, user } = renderGenerateScreen();
    const select = screen.getByLabelText<HTMLSelectElement>(SYNTHESIS_TEXTS.label);
    expect(select.value).toBe('auto');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'Automática',
      'Por parches (estructurada: ladrillos, tablas, vetas)',
      'Por mezcla (estocástica: granito, arena, terrazo)',
    ]);

    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('No file input');
    await user.upload(input, new File([new Uint8Array(8)], 'granite.png', { type: 'image/png' }));
    await screen.findByRole('button', { name: /Cambiar la imagen de referencia/ });
    await user.type(screen.getByLabelText('Positive Prompt'), 'granite');
    await user.type(screen.getByLabelText('Negative Prompt'), 'blurry');
    const generate = () => user.click(screen.getByRole('button', { name: /^Generat/ }));
    const done = async (count: number) => {
      await waitFor(() => expect(server.posted).toHaveLength(count));
      await waitFor(() =>
        expect(screen.getByRole('button', { name: /^Generat/ }).textContent).toBe('Generate'),
      );
    };

    await generate();
    await done(1);
    expect(server.posted[0]?.has('synthesis')).toBe(false);

    await user.selectOptions(select, 'blending');
    await generate();
    await done(2);
    expect(server.posted[1]?.get('synthesis')).toBe('blending');
  });
});
