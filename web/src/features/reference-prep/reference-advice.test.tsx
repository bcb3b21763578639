// @vitest-environment jsdom
import {
  API_ROUTES,
  REFERENCE_PREP_TEXTS,
  REFERENCE_WARNING_TEXTS,
  referenceWarnings,
  type ReferenceAnalysis,
  type ReferenceWarningCode,
} from '@tessera/contract';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReferenceAdvice } from './reference-advice';

// The check beside the reference (issue 27, part 5): what the server says, said in words.

const FIGURES = {
  analysedWidth: 320,
  analysedHeight: 240,
  segments: 0,
  convergingLines: 0,
  convergenceSpreadDegrees: 0,
  vanishingPoint: null,
  parallelLines: 0,
  spacingRatio: 1,
  spacingSteadiness: 0,
  scaleRatio: 1,
  scaleSteadiness: 0,
  scaleAxis: 'vertical',
  objectArea: 0,
  objectContrast: 0,
  lightingRange: 0,
  lightingShare: 0,
} as const;

function analysis(codes: ReferenceWarningCode[]): ReferenceAnalysis {
  return { width: 640, height: 480, warnings: referenceWarnings(codes), figures: FIGURES };
}

/** A fetch answering the check with `answer`; the posted forms are kept. */
function serve(answer: () => Response) {
  const posted: FormData[] = [];
  const fetch = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    if (String(input) !== API_ROUTES.referenceAnalysis) return new Response(null, { status: 404 });
    posted.push(init?.body as FormData);
    return answer();
  });
  vi.stubGlobal('fetch', fetch);
  return posted;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const floor = new File([new Uint8Array(8)], 'floor.jpg', { type: 'image/jpeg' });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('ReferenceAdvice', () => {
  it('posts the reference and shows each warning in words, with the preparation offered', async () => {
    const posted = serve(() => json(analysis(['perspective', 'lighting'])));
    render(<ReferenceAdvice file={floor} disabled={false} onUse={() => undefined} />);
    expect(screen.getByText(REFERENCE_PREP_TEXTS.checking)).toBeTruthy();

    const warnings = await screen.findByRole('region', {
      name: REFERENCE_PREP_TEXTS.warningsTitle,
    });
    expect(warnings.textContent).toContain(REFERENCE_WARNING_TEXTS.perspective);
    expect(warnings.textContent).toContain(REFERENCE_WARNING_TEXTS.lighting);
    expect(screen.queryByText(REFERENCE_PREP_TEXTS.checking)).toBeNull();
    const button = screen.getByRole('button', { name: REFERENCE_PREP_TEXTS.prepare });
    expect(button.className).toContain('button-primary');
    // The file goes as the preview's does: the part `image`, with its name.
    expect(posted).toHaveLength(1);
    expect((posted[0]?.get('image') as File).name).toBe('floor.jpg');
  });

  it('says nothing more than the button when the reference can work', async () => {
    serve(() => json(analysis([])));
    render(<ReferenceAdvice file={floor} disabled={false} onUse={() => undefined} />);
    await waitFor(() => expect(screen.queryByText(REFERENCE_PREP_TEXTS.checking)).toBeNull());
    expect(screen.queryByRole('region')).toBeNull();
    const button = screen.getByRole('button', { name: REFERENCE_PREP_TEXTS.prepare });
    expect(button.className).not.toContain('button-primary');
  });

  it("tells when the check could not be made, with the server's text", async () => {
    serve(() => json({ error: 'Too many at once' }, 429));
    render(<ReferenceAdvice file={floor} disabled={false} onUse={() => undefined} />);
    await screen.findByText(REFERENCE_PREP_TEXTS.checkFailed('Too many at once'));
    expect(screen.getByRole('button', { name: REFERENCE_PREP_TEXTS.prepare })).toBeTruthy();
  });

  it('checks a new reference again, and never shows the old one’s answer for it', async () => {
    let codes: ReferenceWarningCode[] = ['object'];
    serve(() => json(analysis(codes)));
    const { rerender } = render(
      <ReferenceAdvice file={floor} disabled={false} onUse={() => undefined} />,
    );
    await screen.findByText(REFERENCE_WARNING_TEXTS.object);
    codes = [];
    const cropped = new File([new Uint8Array(8)], 'floor-prepared.png', { type: 'image/png' });
    rerender(<ReferenceAdvice file={cropped} disabled={false} onUse={() => undefined} />);
    expect(screen.queryByText(REFERENCE_WARNING_TEXTS.object)).toBeNull();
    await waitFor(() => expect(screen.queryByText(REFERENCE_PREP_TEXTS.checking)).toBeNull());
    expect(screen.queryByRole('region')).toBeNull();
  });
});
