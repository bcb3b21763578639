import {
  DEFAULT_HEIGHT_SETTINGS,
  TEXT_BUNDLES,
  type HdSizeLabel,
  type HeightSettings,
  type MaterialMap,
  type MaterialMapsRequest,
  type MaterialMapsStatus,
} from '@tessera/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { DownloadIcon } from '../../components/icons';
import { fetchMaterialMaps, mapFileUrl, orderMaterialMaps } from '../../lib/api/materials';
import { useTexts } from '../../lib/i18n';
import { DownloadZipButton, useZipDownload, ZipDownloadStatus } from '../zip';
import { HeightControls } from './height-controls';
import { MaterialPackageDownload } from './material-package-download';
import './materials.css';

// three.js is loaded only when a material is shown: the app's main bundle stays as it was.
const MaterialPreview = lazy(() => import('./material-preview'));

/** How often a running job's progress is read: about as often as the runner saves it. */
const POLL_MS = 500;

/** A job that has not ended yet: the status is polled until it does. */
function mapsRunning(status: MaterialMapsStatus | undefined): boolean {
  const state = status?.job?.status;
  return state === 'queued' || state === 'in_progress';
}

function sameHeight(a: HeightSettings, b: HeightSettings): boolean {
  return a.invert === b.invert && a.strength === b.strength;
}

export interface MaterialMapsSectionProps {
  kind: MaterialMapsRequest['kind'];
  image: string;
  /** An LD image's HD sizes: the tile sizes its material package may take (issue 26). */
  tileSizes?: readonly HdSizeLabel[];
}

/**
 * An image's PBR material maps in its details modal: "Generate maps" orders them (a job, its
 * progress polled), then each map downloads on its own or all as one ZIP, and the material
 * shows lit on a plane and a sphere that the mouse rotates. The height controls show how the
 * maps read the height; changed, "Remake maps" orders them again so, the maps shown staying
 * until the new ones are made.
 */
export function MaterialMapsSection({ kind, image, tileSizes }: MaterialMapsSectionProps) {
  const T = useTexts(TEXT_BUNDLES.materialMaps);
  const queryClient = useQueryClient();
  const queryKey = ['material-maps', kind, image];
  const status = useQuery({
    queryKey,
    queryFn: () => fetchMaterialMaps({ kind, image }),
    refetchInterval: (query) => (mapsRunning(query.state.data) ? POLL_MS : false),
  });
  const [orderError, setOrderError] = useState<string>();
  // The person's settings, for this image only; until they change one, the stored ones.
  const [draft, setDraft] = useState<{ of: string; height: HeightSettings }>();
  const zip = useZipDownload('maps');

  const data = status.data;
  const running = mapsRunning(data);
  const maps = data?.maps ?? [];
  const job = data?.job;
  const error = orderError ?? (job?.status === 'error' ? job.error : undefined);
  const madeAt = data?.madeAt;
  const stored = data?.height ?? DEFAULT_HEIGHT_SETTINGS;
  const imageKey = `${kind}:${image}`;
  const height = draft?.of === imageKey ? draft.height : stored;
  const changed = maps.length > 0 && !running && !sameHeight(height, stored);

  function generate() {
    setOrderError(undefined);
    orderMaterialMaps({ kind, image, height })
      .then((next) => queryClient.setQueryData(queryKey, next))
      .catch((err: unknown) => setOrderError(err instanceof Error ? err.message : String(err)));
  }

  const preview = (map: MaterialMap) => {
    const file = maps.find((m) => m.map === map);
    return file ? mapFileUrl(file.preview, madeAt) : undefined;
  };
  const normal = preview('normal-opengl');
  const roughness = preview('roughness');
  const occlusion = preview('ambient-occlusion');
  const heightMap = preview('height');

  return (
    <section className="material-maps" aria-label={T.heading}>
      <h3 className="details-label">{T.heading}</h3>
      <div className="material-maps-actions">
        <button type="button" className="button" disabled={running} onClick={generate}>
          {running ? T.generating(job?.percent ?? 0) : maps.length > 0 ? T.remake : T.generate}
        </button>
        {maps.length > 0 && <DownloadZipButton files={maps.map((m) => m.filename)} zip={zip} />}
      </div>
      <HeightControls
        value={height}
        onChange={(next) => setDraft({ of: imageKey, height: next })}
        disabled={running}
        heightMapUrl={heightMap}
      />
      {changed && <p className="material-maps-hint">{T.settingsChanged}</p>}
      {running && (
        <progress
          className="material-maps-progress"
          aria-label={T.progress}
          max={100}
          value={job?.percent ?? 0}
        />
      )}
      {error !== undefined && (
        <p className="material-maps-error" role="alert">
          {error}
        </p>
      )}
      <ZipDownloadStatus zip={zip} />
      {maps.length > 0 && (
        <>
          <ul className="material-maps-files" aria-label={T.files}>
            {maps.map((m) => (
              <li key={m.map}>
                <a
                  className="button button-small"
                  href={mapFileUrl(m.filename, madeAt)}
                  download={m.filename}
                >
                  <DownloadIcon />
                  {T.maps[m.map]}
                </a>
              </li>
            ))}
          </ul>
          <MaterialPackageDownload kind={kind} image={image} tileSizes={tileSizes} />
          {data?.colourPreview !== undefined &&
            normal !== undefined &&
            roughness !== undefined &&
            occlusion !== undefined &&
            heightMap !== undefined && (
              <Suspense fallback={<p className="material-preview-note">{T.previewLoading}</p>}>
                <MaterialPreview
                  colour={mapFileUrl(data.colourPreview, madeAt)}
                  normal={normal}
                  roughness={roughness}
                  occlusion={occlusion}
                  height={heightMap}
                  strength={stored.strength}
                />
              </Suspense>
            )}
        </>
      )}
    </section>
  );
}
