// @vitest-environment jsdom
import {
  API_ROUTES,
  errorText,
  GENERATE_TEXTS,
  SCREEN_PATHS,
  shownErrorText,
  TEXTS,
  UPLOAD_MAX_BYTES,
} from '@tessera/contract';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GenerateScreen } from './generate-screen';
import { clearGenerateSessions } from './generate-session';
import { fakeServer, renderWithApp } from './testing';

// The pixel size is read by the browser's image decoder, which jsdom has not: the test says it.
const sizes = vi.hoisted(() => new Map<string, { width: number; height: number } | undefined>());
vi.mock('./image-size', () => ({
  readImageSize: async (file: File) =>
    sizes.has(file.name) ? sizes.get(file.name) : { width: 512, height: 512 },
}));
// The details modal is another feature's: a stand-in says which image it was opened for.
vi.mock('../image-details', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  LdImageDetailsModal: ({
    image,
    onClose,
  }: {
    image: { filename: string };
    onClose: () => void;
  }) => (
    <div role="dialog" aria-label={`Details of ${image.filename}`}>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </div>
  ),
}));

const png = (name: string, bytes = 8) =>
  new File([new Uint8Array(bytes)], name, { type: 'image/png' });

let alerts: string[];

beforeEach(() => {
  alerts = [];
  vi.spyOn(window, 'alert').mockImplementation((message?: unknown) => {
    alerts.push(String(message));
  });
  // Failures are logged by design; the tests read the screen instead.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  URL.createObjectURL = vi.fn(() => 'blob:reference');
  URL.revokeObjectURL = vi.fn();
  sizes.clear();
});

afterEach(() => {
  cleanup();
  clearGenerateSessions();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function setUp(
  options: Parameters<typeof fakeServer>[0] = {},
  path: string = SCREEN_PATHS.generate,
) {
  const server = fakeServer(options);
  vi.stubGlobal('fetch', server.fetch);
  renderWithApp(server.client, path, [
    { path: SCREEN_PATHS.generate, element: <GenerateScreen pollIntervalMs={0} /> },
  ]);
  // A person can pick any file with "All files" in the dialog, whatever `accept` says.
  return { server, user: userEvent.setup({ applyAccept: false }) };
}

function fileInput(): HTMLInputElement {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('No file input');
  return input;
}

async function upload(user: ReturnType<typeof userEvent.setup>, file: File) {
  await user.upload(fileInput(), file);
}

async function fillPrompts(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Positive Prompt'), 'weathered oak');
  await user.type(screen.getByLabelText('Negative Prompt'), 'blurry');
}

const generateButton = () => screen.getByRole('button', { name: /^Generat/ });

describe('Generate screen', () => {
  it('[G2][G7][G8][G10] shows the parameters with the spec defaults and ranges', () => {
    setUp();
    expect(screen.getByText('Generation Parameters').closest('details')?.open).toBe(true);
    const number = (label: string) => screen.getByLabelText<HTMLInputElement>(label);
    const attributes = (label: string) => {
      const input = number(label);
      return [input.value, input.min, input.max, input.step];
    };
    expect(attributes('Imagination Weight')).toEqual(['3.5', '0', '20', '0.1']);
    expect(attributes('Similarity')).toEqual(['1', '0', '1', '0.1']);
    expect(attributes('Prompt Adherence')).toEqual(['0.9', '0', '2', '0.1']);
    expect(attributes('Style Weight')).toEqual(['0', '0', '100', '1']);
    expect(attributes('Batch Size')).toEqual(['1', '1', '10', '1']);
    expect(screen.getByRole('switch', { name: 'Seamless' })).toHaveProperty('checked', false);
    expect(screen.getByRole('switch', { name: 'Mask' })).toHaveProperty('checked', false);
    expect(screen.getByRole('switch', { name: 'Use Fixed Seed' })).toHaveProperty('checked', true);
    const format = screen.getByLabelText<HTMLSelectElement>('Output Format');
    expect(format.value).toBe('Square');
    expect(
      within(format)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'Square (1024x1024)',
      'Rectangle (1448x724)',
      'Slab (677x1548)',
      'Plank (2506x418)',
    ]);
    expect(screen.getByText('Tags').closest('details')).not.toBeNull();
    expect(screen.getByText(GENERATE_TEXTS.placeholder)).toBeTruthy();
  });

  it('[U1][U2][U3][U4][U5] a file breaking an upload rule is alerted and not accepted', async () => {
    const { user } = setUp();
    const huge = png('huge.png');
    Object.defineProperty(huge, 'size', { value: UPLOAD_MAX_BYTES + 1 });
    sizes.set('wide.png', { width: 5000, height: 4000 });
    sizes.set('broken.png', undefined);

    for (const file of [png('notes.txt'), huge, png('wide.png'), png('broken.png')]) {
      await upload(user, file);
    }
    await waitFor(() => expect(alerts).toHaveLength(4));
    expect(alerts).toEqual([
      'Formato no admitido. Usa: png, jpg, jpeg, bmp, gif o webp.',
      'El archivo supera el tamaño máximo permitido (25 MB).',
      'La imagen (5000x4000, 20.00 MP) supera el máximo permitido: 17.00 MP (~4096×4096).',
      'No se han podido leer las dimensiones de la imagen.',
    ]);
    expect(screen.getByRole('button', { name: GENERATE_TEXTS.uploadReference })).toBeTruthy();
  });

  it('[G1] accepts a file by click or by drop on the upload area', async () => {
    const { user } = setUp();
    await upload(user, png('oak.png'));
    expect(
      await screen.findByRole('button', { name: GENERATE_TEXTS.changeReference('oak.png') }),
    ).toBeTruthy();
    expect(screen.getByText(`512×512 · ${GENERATE_TEXTS.dropToReplace}`)).toBeTruthy();

    fireEvent.drop(screen.getByTestId('upload-area'), {
      dataTransfer: { files: [png('slate.webp')] },
    });
    expect(
      await screen.findByRole('button', { name: GENERATE_TEXTS.changeReference('slate.webp') }),
    ).toBeTruthy();
    expect(alerts).toEqual([]);
  });

  it('[G9] both prompts are required; nothing is posted without them', async () => {
    const { server, user } = setUp();
    await upload(user, png('oak.png'));
    await screen.findByRole('button', { name: /Cambiar la imagen de referencia/ });
    await user.click(generateButton());
    expect(screen.getByText(TEXTS.positivePromptRequired)).toBeTruthy();
    expect(screen.getByText(TEXTS.negativePromptRequired)).toBeTruthy();
    expect(server.posted).toHaveLength(0);
  });

  it('[G8] a value out of its range is refused with its range', async () => {
    const { server, user } = setUp();
    await upload(user, png('oak.png'));
    await fillPrompts(user);
    await user.clear(screen.getByLabelText('Batch Size'));
    await user.type(screen.getByLabelText('Batch Size'), '11');
    await user.clear(screen.getByLabelText('Imagination Weight'));
    await user.type(screen.getByLabelText('Imagination Weight'), '21');
    await user.click(generateButton());
    expect(screen.getByText(TEXTS.batchSizeInvalid(1, 10))).toBeTruthy();
    expect(screen.getByText(TEXTS.numberOutOfRange(0, 20))).toBeTruthy();
    expect(server.posted).toHaveLength(0);
  });

  it('asks for a reference before generating', async () => {
    const { server, user } = setUp();
    await fillPrompts(user);
    await user.click(generateButton());
    expect(screen.getByRole('alert').textContent).toBe(GENERATE_TEXTS.noReference);
    expect(server.posted).toHaveLength(0);
  });

  it('[G4][G12][G15][G5] a batch of 2 locks the form, fills its footer placeholders and tags every result', async () => {
    const { server, user } = setUp({ tags: [{ id: 'tag-wood', name: 'Wood', color: '#884422' }] });
    await upload(user, png('oak.png'));
    await fillPrompts(user);
    await user.clear(screen.getByLabelText('Batch Size'));
    await user.type(screen.getByLabelText('Batch Size'), '2');
    await user.click(screen.getByText('Tags'));
    await user.click(await screen.findByRole('checkbox', { name: 'Wood' }));

    server.hold();
    await user.click(generateButton());
    // Locked, with one placeholder per item and the loading animation.
    expect(generateButton().textContent).toBe('Generating... (0%)');
    expect(generateButton()).toHaveProperty('disabled', true);
    expect(screen.getByLabelText('Positive Prompt').matches(':disabled')).toBe(true);
    expect(screen.getAllByRole('img', { name: GENERATE_TEXTS.pendingImage })).toHaveLength(2);
    expect(screen.getByText(/Generando imagen/)).toBeTruthy();
    act(() => server.release());

    await waitFor(() => expect(generateButton().textContent).toBe('Generate'));
    const results = screen.getByRole('list', { name: GENERATE_TEXTS.results });
    expect(
      within(results)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['oak-0.png', 'oak-1.png'].map(GENERATE_TEXTS.load));
    expect(screen.queryAllByRole('img', { name: GENERATE_TEXTS.pendingImage })).toHaveLength(0);
    expect(screen.getByRole('img', { name: 'oak-1.png' }).getAttribute('src')).toBe(
      '/api/images/ld/oak-1.png',
    );
    expect(server.commands.filter((c) => c.action === 'assign-tag').map((c) => c.fields)).toEqual([
      { id: 'tag-wood', filename: 'oak-0.png' },
      { id: 'tag-wood', filename: 'oak-1.png' },
    ]);
    expect(server.posted.map((body) => body.get('Kseed'))).toEqual(['10', '10']);
    expect(screen.getByLabelText('Positive Prompt').matches(':disabled')).toBe(false);

    await user.click(screen.getByRole('button', { name: GENERATE_TEXTS.openDetails('oak-1.png') }));
    expect(screen.getByRole('dialog', { name: 'Details of oak-1.png' })).toBeTruthy();
  });

  it('shows the waiting notice of the job under the progress while it lasts, and removes it', async () => {
    // Sent in English; shown in the language of the screen.
    const retrying = shownErrorText('es', 'FILE_STORE_RETRYING');
    const { server, user } = setUp({
      job: () => [
        { status: 'in_progress', percent: 30, notice: errorText('FILE_STORE_RETRYING') },
        { status: 'in_progress', percent: 60 },
        { status: 'finished', percent: 100, output_image: 'oak-0.png' },
      ],
    });
    // Each answer of the posted job waits for `answer()`, so the screen is read between two.
    let next: (() => void) | undefined;
    const answer = () => {
      const go = next;
      next = undefined;
      act(() => go?.());
    };
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      const response = await server.fetch(input, init);
      if (input.startsWith(API_ROUTES.previewStatus) && server.posted.length > 0)
        await new Promise<void>((resolve) => (next = resolve));
      return response;
    });
    await upload(user, png('oak.png'));
    await fillPrompts(user);
    await user.click(generateButton());

    await waitFor(() => expect(next).toBeDefined());
    answer();
    const notice = await screen.findByText(retrying);
    expect(notice.getAttribute('role')).toBe('status');
    expect(generateButton().textContent).toBe('Generating... (30%)');
    // Under the progress: the button's next sibling.
    expect(generateButton().nextElementSibling).toBe(notice);

    await waitFor(() => expect(next).toBeDefined());
    answer();
    await waitFor(() => expect(generateButton().textContent).toBe('Generating... (60%)'));
    expect(screen.queryByText(retrying)).toBeNull();

    await waitFor(() => expect(next).toBeDefined());
    answer();
    await waitFor(() => expect(generateButton().textContent).toBe('Generate'));
    expect(screen.queryByText(retrying)).toBeNull();
  });

  it("[G16] a failed job stops the batch with 'Error en la generación de imágenes.' and frees the form", async () => {
    const { server, user } = setUp({
      job: () => [
        { status: 'in_progress', percent: 10 },
        { status: 'error', percent: 10 },
      ],
    });
    await upload(user, png('oak.png'));
    await fillPrompts(user);
    await user.clear(screen.getByLabelText('Batch Size'));
    await user.type(screen.getByLabelText('Batch Size'), '3');
    await user.click(generateButton());

    expect((await screen.findByRole('alert')).textContent).toBe(TEXTS.generationError);
    expect(generateButton().textContent).toBe('Generate');
    expect(generateButton()).toHaveProperty('disabled', false);
    expect(server.posted).toHaveLength(1);
    expect(screen.queryByRole('list', { name: GENERATE_TEXTS.results })).toBeNull();
  });

  it("[G17] a status call that fails shows 'Error obtaining generate image status.' under the generation error", async () => {
    const { user } = setUp({ job: () => ['fail'] });
    await upload(user, png('oak.png'));
    await fillPrompts(user);
    await user.click(generateButton());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(TEXTS.generationError + TEXTS.generateStatusError);
  });

  it("[G17] a generated image that cannot be loaded shows 'Error loading the generated image.'", async () => {
    const { user } = setUp();
    await upload(user, png('oak.png'));
    await fillPrompts(user);
    await user.click(generateButton());
    const image = await screen.findByRole('img', { name: 'oak-0.png' });
    fireEvent.error(image);
    expect(screen.getByRole('alert').textContent).toBe(TEXTS.generatedImageLoadError);
  });

  it('[U6] the reference is checked again at submit', async () => {
    const { server, user } = setUp();
    await upload(user, png('oak.png'));
    await fillPrompts(user);
    await screen.findByRole('button', { name: /Cambiar la imagen de referencia/ });
    // The file can no longer be read by the time Generate is pressed.
    sizes.set('oak.png', undefined);
    await user.click(generateButton());
    await waitFor(() => expect(alerts).toEqual([TEXTS.uploadUnreadable]));
    expect(server.posted).toHaveLength(0);
    expect(screen.getByRole('button', { name: GENERATE_TEXTS.uploadReference })).toBeTruthy();
  });

  it('[G6] a footer thumbnail reloads its image, its reference and its parameters', async () => {
    const { server, user } = setUp({
      metadata: (index) => (index === 0 ? { style: 0.42, seamless: true } : {}),
    });
    await upload(user, png('oak.png'));
    await fillPrompts(user);
    await user.clear(screen.getByLabelText('Batch Size'));
    await user.type(screen.getByLabelText('Batch Size'), '2');
    await user.click(generateButton());
    await waitFor(() => expect(generateButton().textContent).toBe('Generate'));

    await user.clear(screen.getByLabelText('Positive Prompt'));
    await user.type(screen.getByLabelText('Positive Prompt'), 'something else');
    await user.click(screen.getByRole('switch', { name: 'Use Fixed Seed' }));
    await user.click(screen.getByRole('button', { name: GENERATE_TEXTS.load('oak-0.png') }));

    await waitFor(() =>
      expect(screen.getByLabelText<HTMLTextAreaElement>('Positive Prompt').value).toBe(
        'weathered oak',
      ),
    );
    expect(screen.getByLabelText<HTMLInputElement>('Style Weight').value).toBe('42');
    expect(screen.getByRole('switch', { name: 'Seamless' })).toHaveProperty('checked', true);
    expect(screen.getByRole('switch', { name: 'Use Fixed Seed' })).toHaveProperty('checked', true);
    expect(screen.getByRole('img', { name: 'oak-0.png' })).toBeTruthy();
    expect(server.fetched).toContain('/api/images/input/oak-ref-1a2b.png');
    expect(
      screen.getByRole('button', { name: GENERATE_TEXTS.changeReference('oak-ref-1a2b.png') }),
    ).toBeTruthy();
  });

  it('opens with the reference named in ?reference= (Use as reference on /input)', async () => {
    const { server } = setUp({}, '/generate?reference=slate-9f.png');
    expect(
      await screen.findByRole('button', { name: GENERATE_TEXTS.changeReference('slate-9f.png') }),
    ).toBeTruthy();
    expect(server.fetched).toContain('/api/images/input/slate-9f.png');
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Location' }).textContent).toBe(
        SCREEN_PATHS.generate,
      ),
    );
  });
});
