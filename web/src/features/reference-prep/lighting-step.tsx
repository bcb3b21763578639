import { TEXT_BUNDLES } from '@tessera/contract';
import { useState } from 'react';
import { removeReferenceLighting } from '../../lib/api/reference-prep';
import { useTexts } from '../../lib/i18n';
import { loadPixels, toPng } from './image-io';
import type { Pixels } from './pixels';

/** Before and after the engine's lighting removal, each as pixels and as a picture to show. */
export interface LightingResult {
  before: { pixels: Pixels; url: string };
  after: { pixels: Pixels; url: string };
  kept: 'before' | 'after';
}

export interface LightingStepProps {
  /** The picture as it is now (before). */
  pixels: Pixels;
  /** The file name the server is told. */
  name: string;
  result: LightingResult | null;
  /** A new result, the after kept (the picture being prepared becomes it). */
  onResult: (result: LightingResult) => void;
  /** The person keeps one: the picture being prepared becomes it. */
  onKeep: (kept: 'before' | 'after') => void;
  busy: boolean;
  onBusy: (busy: boolean) => void;
}

/**
 * The lighting removal (issue 27, part 5): the server's lighting.ts on the picture, shown before
 * and after, side by side; the person keeps either.
 */
export function LightingStep(props: LightingStepProps) {
  const { pixels, name, result, onResult, onKeep, busy, onBusy } = props;
  const texts = useTexts(TEXT_BUNDLES.referencePrep);
  const [error, setError] = useState<string | null>(null);

  async function run() {
    onBusy(true);
    setError(null);
    try {
      const before = await toPng(pixels);
      const after = await removeReferenceLighting(before, name);
      // The server keeps the size; it is read back at the size it was sent.
      const loaded = await loadPixels(after, Math.max(pixels.width, pixels.height));
      onResult({
        before: { pixels, url: URL.createObjectURL(before) },
        after: { pixels: loaded.pixels, url: URL.createObjectURL(after) },
        kept: 'after',
      });
    } catch (cause) {
      console.error('Removing the lighting failed:', cause);
      setError(cause instanceof Error ? cause.message : String(cause));
    } finally {
      onBusy(false);
    }
  }

  return (
    <div className="prep-lighting">
      <button type="button" className="button" disabled={busy} onClick={() => void run()}>
        {busy ? texts.removingLighting : texts.removeLighting}
      </button>
      {error && (
        <p className="prep-error" role="alert">
          {error}
        </p>
      )}
      {result && (
        <>
          <div className="prep-compare">
            {(['before', 'after'] as const).map((side) => (
              <figure key={side} className={`prep-figure${result.kept === side ? ' is-kept' : ''}`}>
                <img src={result[side].url} alt={texts[side]} />
                <figcaption>
                  {texts[side]}
                  {result.kept === side && ` · ${texts.kept}`}
                </figcaption>
              </figure>
            ))}
          </div>
          <div className="prep-keep" role="group" aria-label={texts.lighting}>
            {(['before', 'after'] as const).map((side) => (
              <button
                key={side}
                type="button"
                className="button"
                aria-pressed={result.kept === side}
                onClick={() => onKeep(side)}
              >
                {side === 'before' ? texts.keepBefore : texts.keepAfter}
              </button>
            ))}
          </div>
        </>
      )}
    </div>
  );
}
