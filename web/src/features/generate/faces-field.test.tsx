// @vitest-environment jsdom
import { GENERATE_TEXTS, TEXTS } from '@tessera/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderGenerateScreen, setUpGenerateScreenTests } from './testing';

/** Any face's badge ("Cara 2/4"): TEXTS.seriesFaceBadge's words. */
const ANY_BADGE = new RegExp(`^${TEXTS.seriesFaceBadge(0, 0).replace('0/0', '\\d+/\\d+')}$`);

// The Faces field of the Generate screen and its series in the footer (issue 25).

vi.mock('./image-size', () => ({ readImageSize: async () => ({ width: 512, height: 512 }) }));

setUpGenerateScreenTests();

async function readyToGenerate(user: ReturnType<typeof userEvent.setup>) {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('No file input');
  await user.upload(input, new File([new Uint8Array(8)], 'oak.png', { type: 'image/png' }));
  await screen.findByRole('button', { name: /Cambiar la imagen de referencia/ });
  await user.type(screen.getByLabelText('Positive Prompt'), 'terrazzo');
  await user.type(screen.getByLabelText('Negative Prompt'), 'blurry');
}

async function setFaces(user: ReturnType<typeof userEvent.setup>, value: string) {
  await user.clear(screen.getByLabelText(GENERATE_TEXTS.labels.faces));
  if (value !== '') await user.type(screen.getByLabelText(GENERATE_TEXTS.labels.faces), value);
}

const generateButton = () => screen.getByRole('button', { name: /^Generat/ });

describe('the Faces field (issue 25)', () => {
  it('sits beside Batch Size: 1 to 12, 1 by default, with its hint', () => {
    renderGenerateScreen();
    const faces = screen.getByLabelText<HTMLInputElement>(GENERATE_TEXTS.labels.faces);
    expect([faces.value, faces.min, faces.max, faces.step]).toEqual(['1', '1', '12', '1']);
    expect(faces.closest('.generate-grid')).toBe(
      screen.getByLabelText('Batch Size').closest('.generate-grid'),
    );
    const hint = screen.getByText(TEXTS.facesHint);
    expect(faces.getAttribute('aria-describedby')).toBe(hint.id);
  });

  it.each(['0', '13', '2.5', ''])('refuses %j with its range and posts nothing', async (value) => {
    const { server, user } = renderGenerateScreen();
    await readyToGenerate(user);
    await setFaces(user, value);
    await user.click(generateButton());
    const error = screen.getByText(TEXTS.facesInvalid(1, 12));
    const faces = screen.getByLabelText(GENERATE_TEXTS.labels.faces);
    expect(faces.getAttribute('aria-invalid')).toBe('true');
    expect(faces.getAttribute('aria-describedby')?.split(' ')).toContain(error.id);
    expect(server.posted).toHaveLength(0);
  });

  it('with Faces 1 posts no faces field and fills one placeholder per item, as the spec has it', async () => {
    const { server, user } = renderGenerateScreen();
    await readyToGenerate(user);
    await user.click(generateButton());
    await waitFor(() => expect(generateButton().textContent).toBe('Generate'));
    expect(server.posted[0]?.has('faces')).toBe(false);
    const results = screen.getByRole('list', { name: GENERATE_TEXTS.results });
    expect(
      within(results)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual([GENERATE_TEXTS.load('oak-0.png')]);
    expect(within(results).queryByText(ANY_BADGE)).toBeNull();
  });

  it('Faces 3: one placeholder per face, then the series in the footer, every face tagged', async () => {
    const { server, user } = renderGenerateScreen({
      tags: [{ id: 'tag-stone', name: 'Stone', color: '#777' }],
    });
    await readyToGenerate(user);
    await setFaces(user, '3');
    await user.click(screen.getByText('Tags'));
    await user.click(await screen.findByRole('checkbox', { name: 'Stone' }));

    server.hold();
    await user.click(generateButton());
    expect(
      screen
        .getAllByRole('img', { name: /^Cara \d de \d pendiente$/ })
        .map((p) => p.getAttribute('aria-label')),
    ).toEqual([1, 2, 3].map((face) => GENERATE_TEXTS.pendingFace(face, 3)));
    act(() => server.release());

    await waitFor(() => expect(generateButton().textContent).toBe('Generate'));
    expect(server.posted[0]?.get('faces')).toBe('3');
    const results = screen.getByRole('list', { name: GENERATE_TEXTS.results });
    expect(
      within(results)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['oak-0.png', 'oak-0-f2.png', 'oak-0-f3.png'].map(GENERATE_TEXTS.load));
    expect(
      within(results)
        .getAllByText(ANY_BADGE)
        .map((badge) => badge.textContent),
    ).toEqual([1, 2, 3].map((face) => TEXTS.seriesFaceBadge(face, 3)));
    expect(screen.queryAllByRole('img', { name: /^Pending/ })).toHaveLength(0);
    // Face 1 in the preview.
    expect(screen.getByRole('img', { name: 'oak-0.png' })).toBeTruthy();
    expect(server.commands.filter((c) => c.action === 'assign-tag').map((c) => c.fields)).toEqual([
      { id: 'tag-stone', filename: 'oak-0.png' },
      { id: 'tag-stone', filename: 'oak-0-f2.png' },
      { id: 'tag-stone', filename: 'oak-0-f3.png' },
    ]);
  });

  it("a face reloaded from the footer sets Faces to its series' size; a single image sets 1", async () => {
    const { user } = renderGenerateScreen();
    await readyToGenerate(user);
    await setFaces(user, '2');
    await user.click(generateButton());
    await waitFor(() => expect(generateButton().textContent).toBe('Generate'));
    await setFaces(user, '1');
    await user.click(generateButton());
    await waitFor(() => expect(generateButton().textContent).toBe('Generate'));
    const faces = () => screen.getByLabelText<HTMLInputElement>(GENERATE_TEXTS.labels.faces).value;
    expect(faces()).toBe('1');

    await user.click(screen.getByRole('button', { name: GENERATE_TEXTS.load('oak-0-f2.png') }));
    await waitFor(() => expect(faces()).toBe('2'));
    await user.click(screen.getByRole('button', { name: GENERATE_TEXTS.load('oak-1.png') }));
    await waitFor(() => expect(faces()).toBe('1'));
  });
});
