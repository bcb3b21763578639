import { readSeriesFace, TEXT_BUNDLES, type LdImage } from '@tessera/contract';
import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import { CrossIcon } from '../../components/icons';
import { drawPlan, planPixelSize, type PlanDrawing } from './draw-plan';
import { LayingControls } from './laying-controls';
import { SelectField } from './laying-fields';
import { exportPlanPng } from './export-plan';
import {
  DEFAULT_SETTINGS,
  EXPORT_WIDTHS,
  settingsForFormat,
  tileCmOf,
  type LayingSettings,
} from './laying-settings';
import { layTiles } from './patterns';
import { assignFaces } from './placement';
import { formatOfImage } from './image-format';
import { useFaceMaps } from './use-face-maps';
import { useTilePictures } from './use-tile-pictures';
import { useTexts } from '../../lib/i18n';
import './laying.css';

// three.js loads only when the room is shown, as for the material preview.
const LayingRoom3d = lazy(() => import('./laying-room-3d'));

/** The on-screen plan's and the floor texture's widths in pixels. */
const PLAN_WIDTH_PX = 960;
const TEXTURE_WIDTH_PX = 2048;
/** What the maps' plans show in the joints: a flat normal, and rough grout. */
const FLAT_NORMAL = '#8080ff';
const GROUT_ROUGHNESS = '#e0e0e0';

export interface LayingPreviewDialogProps {
  image: LdImage;
  /** The faces to lay, face 1 first: the image's series as the gallery has it, or the image. */
  faces: readonly LdImage[];
  onClose: () => void;
}

/** The laying preview (issue 25, part 5): the image's or its series' floor, flat and in 3D. */
export function LayingPreviewDialog({ image, faces: given, onClose }: LayingPreviewDialogProps) {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const { close: closeLabel } = useTexts(TEXT_BUNDLES.dialog);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const planRef = useRef<HTMLCanvasElement>(null);
  const titleId = useId();
  const names = given.map((face) => face.filename).join('\n');
  // The same faces keep the same array, so the pictures load once.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the names stand for the faces
  const faces = useMemo(() => given, [names]);
  const pictures = useTilePictures(faces);
  const maps = useFaceMaps(faces);
  const [chosen, setChosen] = useState<LayingSettings>(DEFAULT_SETTINGS);
  const [exportWidth, setExportWidth] = useState<number>(EXPORT_WIDTHS[0]);
  const [planState, setPlanState] = useState<'waiting' | 'drawn'>('waiting');
  const [revision, setRevision] = useState(0);
  const [textures] = useState(() => ({
    colour: document.createElement('canvas'),
    normal: document.createElement('canvas'),
    roughness: document.createElement('canvas'),
  }));

  const format = formatOfImage(image.metadata, pictures.size);
  const valid = settingsForFormat(chosen, format);
  const settings: LayingSettings = { ...chosen, ...valid };
  const tileCm = tileCmOf(settings.tileSize);
  const roomCm = { width: settings.roomWidthM * 100, depth: settings.roomDepthM * 100 };
  const { pattern, jointMm, rotation, seed, roomWidthM, roomDepthM } = settings;

  const tiles = useMemo(() => {
    if (!tileCm) return [];
    const laid = layTiles({
      tileCm,
      jointMm,
      pattern,
      roomM: { width: roomWidthM, depth: roomDepthM },
    });
    return assignFaces(laid, faces.length, rotation, seed);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- tileCm follows settings.tileSize
  }, [settings.tileSize, jointMm, pattern, roomWidthM, roomDepthM, faces.length, rotation, seed]);

  const plan: PlanDrawing | undefined =
    pictures.state === 'loaded'
      ? { tiles, roomCm, pictures: pictures.pictures, groutColour: settings.groutColour }
      : undefined;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  // Draws the plan on screen and the floor's textures whenever the floor changes.
  useEffect(() => {
    const canvas = planRef.current;
    if (!canvas || !plan) return;
    Object.assign(canvas, planPixelSize(roomCm, PLAN_WIDTH_PX));
    drawPlan(canvas, plan);
    Object.assign(textures.colour, planPixelSize(roomCm, TEXTURE_WIDTH_PX));
    drawPlan(textures.colour, plan);
    if (maps) {
      for (const [canvas, pictures, groutColour] of [
        [textures.normal, maps.normal, FLAT_NORMAL],
        [textures.roughness, maps.roughness, GROUT_ROUGHNESS],
      ] as const) {
        Object.assign(canvas, planPixelSize(roomCm, TEXTURE_WIDTH_PX));
        drawPlan(canvas, { ...plan, pictures, groutColour });
      }
    }
    setPlanState('drawn');
    setRevision((value) => value + 1);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the plan is what its parts make
  }, [tiles, pictures, maps, settings.groutColour]);

  const name = readSeriesFace(image.metadata)?.seriesId ?? image.filename.replace(/\.[^.]+$/, '');

  return (
    <dialog
      ref={dialogRef}
      className="dialog laying-dialog"
      aria-labelledby={titleId}
      onClose={(event) => {
        // Not the details modal's close too: React passes events up its own tree.
        event.stopPropagation();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) dialogRef.current?.close();
      }}
    >
      <div className="laying-content">
        <header className="details-header">
          <h2 id={titleId} className="details-title">
            {TEXTS.layingPreviewTitle(image.filename)}
          </h2>
          <button
            type="button"
            className="details-close"
            aria-label={closeLabel}
            onClick={() => dialogRef.current?.close()}
          >
            <CrossIcon size={20} />
          </button>
        </header>
        <p className="laying-note">{TEXTS.layingFacesNote(faces.length)}</p>
        <LayingControls
          settings={settings}
          sizes={valid.sizes}
          patterns={valid.patterns}
          rotations={valid.rotations}
          onChange={(change) => setChosen((old) => ({ ...old, ...valid, ...change }))}
        />
        {pictures.state === 'error' && (
          <p className="laying-error" role="alert">
            {TEXTS.layingImagesError}
          </p>
        )}
        <div className="laying-views">
          <canvas
            ref={planRef}
            className="laying-plan"
            role="img"
            aria-label={TEXTS.layingPlan}
            data-state={planState}
          />
          {plan && (
            <Suspense fallback={<p className="laying-note">…</p>}>
              <LayingRoom3d
                plan={textures.colour}
                normalPlan={maps && textures.normal}
                roughnessPlan={maps && textures.roughness}
                revision={revision}
                roomM={{ width: roomWidthM, depth: roomDepthM }}
              />
            </Suspense>
          )}
        </div>
        <div className="laying-export">
          <SelectField
            label={TEXTS.layingExportWidth}
            value={exportWidth}
            options={EXPORT_WIDTHS}
            onValue={setExportWidth}
          />
          <button
            type="button"
            className="button button-primary"
            disabled={!plan}
            onClick={() =>
              plan &&
              exportPlanPng(
                plan,
                exportWidth,
                `${name}_laying_${pattern}_${settings.tileSize}_${exportWidth}px.png`,
              )
            }
          >
            {TEXTS.layingExportPng}
          </button>
        </div>
      </div>
    </dialog>
  );
}
