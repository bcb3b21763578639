// The faces' normal and roughness maps (issue 17's material maps), when every face has them.
import type { LdImage, MaterialMap } from '@tessera/contract';
import { useEffect, useState } from 'react';
import { fetchMaterialMaps, mapFileUrl } from '../../lib/api/materials';
import { landscapePicture } from './draw-plan';

export interface FaceMaps {
  normal: readonly CanvasImageSource[];
  roughness: readonly CanvasImageSource[];
}

async function loadPicture(url: string): Promise<CanvasImageSource> {
  const image = new Image();
  image.src = url;
  await image.decode();
  return landscapePicture(image);
}

async function loadFaceMaps(faces: readonly LdImage[]): Promise<FaceMaps | undefined> {
  const statuses = await Promise.all(
    faces.map((face) => fetchMaterialMaps({ kind: 'ld', image: face.filename })),
  );
  // Each at the address of its set (remade maps keep their names; issue 26, part 4).
  const previews = (map: MaterialMap) =>
    statuses.map((status) => {
      const file = status.maps.find((candidate) => candidate.map === map);
      return file && mapFileUrl(file.preview, status.madeAt);
    });
  const normal = previews('normal-opengl');
  const roughness = previews('roughness');
  const all = (urls: (string | undefined)[]): urls is string[] =>
    urls.every((url) => url !== undefined);
  if (!all(normal) || !all(roughness)) return undefined;
  const [normalPictures, roughnessPictures] = await Promise.all([
    Promise.all(normal.map(loadPicture)),
    Promise.all(roughness.map(loadPicture)),
  ]);
  return { normal: normalPictures, roughness: roughnessPictures };
}

/** The maps once loaded; undefined while loading, or when a face has none (the floor is flat). */
export function useFaceMaps(faces: readonly LdImage[]): FaceMaps | undefined {
  const [found, setFound] = useState<{ faces: readonly LdImage[]; maps?: FaceMaps }>();
  useEffect(() => {
    let current = true;
    loadFaceMaps(faces)
      .then((maps) => {
        if (current) setFound({ faces, maps });
      })
      .catch((error: unknown) => console.warn('Laying preview: no material maps:', error));
    return () => {
      current = false;
    };
  }, [faces]);
  return found?.faces === faces ? found.maps : undefined;
}
