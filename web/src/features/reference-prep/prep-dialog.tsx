import { REFERENCE_PREP_MAX_SIDE, TEXT_BUNDLES } from '@tessera/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTexts } from '../../lib/i18n';
import { isConvex, rectifiedSize, type Quad } from './homography';
import { loadPixels, toPng } from './image-io';
import { LightingStep, type LightingResult } from './lighting-step';
import { crop, preparedName, warpQuad, type Pixels, type Rect } from './pixels';
import { PrepStage } from './prep-stage';
import '../../components/gallery/dialog.css';

export type PrepTool = 'crop' | 'perspective' | 'lighting';

export interface PrepDialogProps {
  file: File;
  firstTool: PrepTool;
  onClose: () => void;
  /** The prepared reference, a PNG named after the original. */
  onUse: (file: File) => void;
}

const TOOLS: readonly PrepTool[] = ['crop', 'perspective', 'lighting'];
/** The text that says how to use each tool. */
const HELP = {
  crop: 'cropHelp',
  perspective: 'perspectiveHelp',
  lighting: 'lightingHelp',
} as const;

/** The corners first offered: a quad a fifth in from each side. */
function insetCorners({ width, height }: Pixels): Quad {
  const [x0, x1, y0, y1] = [width * 0.2, width * 0.8, height * 0.2, height * 0.8];
  return [
    { x: x0, y: y0 },
    { x: x1, y: y0 },
    { x: x1, y: y1 },
    { x: x0, y: y1 },
  ];
}

/**
 * The reference preparation step (issue 27, part 5): crop, a four-corner perspective correction
 * and the engine's lighting removal, each applied to the picture in turn; "Use this reference"
 * hands the result over as a PNG file. In a portal: the Generate form's fieldset and drop area
 * stay out of it.
 */
export default function PrepDialog({ file, firstTool, onClose, onUse }: PrepDialogProps) {
  const texts = useTexts(TEXT_BUNDLES.referencePrep);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [original, setOriginal] = useState<{ pixels: Pixels; reduced: boolean } | null>(null);
  const [failed, setFailed] = useState(false);
  const [pixels, setPixels] = useState<Pixels | null>(null);
  const [tool, setTool] = useState<PrepTool>(firstTool);
  const [rect, setRect] = useState<Rect | null>(null);
  const [corners, setCorners] = useState<Quad | null>(null);
  const [lighting, setLighting] = useState<LightingResult | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    dialog.current?.showModal();
    let current = true;
    loadPixels(file, REFERENCE_PREP_MAX_SIDE).then(
      (loaded) => {
        if (!current) return;
        setOriginal(loaded);
        show(loaded.pixels);
      },
      (error: unknown) => {
        console.error(`Opening ${file.name} for preparation failed:`, error);
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
    // The file is read once: the dialog is made for one reference.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The lighting result's pictures are let go with it (keeping one side changes neither).
  const beforeUrl = lighting?.before.url;
  const afterUrl = lighting?.after.url;
  useEffect(
    () => () => {
      for (const url of [beforeUrl, afterUrl]) if (url) URL.revokeObjectURL(url);
    },
    [beforeUrl, afterUrl],
  );

  /** A new picture to work on: the tools start again on it. */
  function show(next: Pixels) {
    setPixels(next);
    setRect(null);
    setCorners(insetCorners(next));
    setLighting(null);
  }

  const canApply =
    pixels !== null &&
    !busy &&
    ((tool === 'crop' && rect !== null && rect.width >= 8 && rect.height >= 8) ||
      (tool === 'perspective' && corners !== null && isConvex(corners)));

  function apply() {
    if (!pixels || !canApply) return;
    if (tool === 'crop' && rect) show(crop(pixels, rect));
    if (tool === 'perspective' && corners) {
      const size = rectifiedSize(corners, pixels.width, pixels.height, REFERENCE_PREP_MAX_SIDE);
      show(warpQuad(pixels, corners, size.width, size.height));
    }
  }

  async function use() {
    if (!pixels) return;
    setBusy(true);
    try {
      const png = await toPng(pixels);
      onUse(new File([png], preparedName(file.name), { type: 'image/png' }));
    } finally {
      setBusy(false);
    }
  }

  return createPortal(
    <dialog
      ref={dialog}
      className="dialog prep-dialog"
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget && !busy) dialog.current?.close();
      }}
    >
      <div className="prep-content">
        <header className="prep-header">
          <h2 id={titleId} className="prep-title">
            {texts.dialogTitle}
          </h2>
          <span className="prep-size">
            {pixels && texts.size(pixels.width, pixels.height)}
            {original?.reduced && ` · ${texts.reduced}`}
          </span>
        </header>
        <div className="prep-tools" role="group" aria-label={texts.tools}>
          {TOOLS.map((name) => (
            <button
              key={name}
              type="button"
              className="prep-tool"
              aria-pressed={tool === name}
              disabled={busy}
              onClick={() => setTool(name)}
            >
              {texts[name]}
            </button>
          ))}
        </div>
        <p className="prep-help">{texts[HELP[tool]]}</p>
        {failed && (
          <p className="prep-error" role="alert">
            {texts.loadFailed}
          </p>
        )}
        {pixels && corners && tool !== 'lighting' && (
          <div className="prep-work">
            <PrepStage
              pixels={pixels}
              tool={tool}
              rect={rect}
              onRect={setRect}
              corners={corners}
              onCorners={setCorners}
            />
            <button
              type="button"
              className="button button-primary"
              disabled={!canApply}
              onClick={apply}
            >
              {texts.apply}
            </button>
          </div>
        )}
        {pixels && tool === 'lighting' && (
          <LightingStep
            pixels={lighting ? lighting.before.pixels : pixels}
            name={preparedName(file.name)}
            result={lighting}
            onResult={(result) => {
              setLighting(result);
              setPixels(result[result.kept].pixels);
            }}
            onKeep={(kept) => {
              if (!lighting) return;
              setLighting({ ...lighting, kept });
              setPixels(lighting[kept].pixels);
            }}
            busy={busy}
            onBusy={setBusy}
          />
        )}
        <footer className="prep-actions">
          <button
            type="button"
            className="button"
            disabled={!original || busy}
            onClick={() => original && show(original.pixels)}
          >
            {texts.startAgain}
          </button>
          <span className="prep-spacer" />
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => dialog.current?.close()}
          >
            {texts.cancel}
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={!pixels || busy}
            onClick={() => void use()}
          >
            {texts.use}
          </button>
        </footer>
      </div>
    </dialog>,
    document.body,
  );
}
