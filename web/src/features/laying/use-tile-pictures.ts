// Loads the faces' LD pictures (same origin, as the CSP wants, so the canvas stays exportable).
import { ldImageUrl, type LdImage } from '@tessera/contract';
import { useEffect, useState } from 'react';
import { landscapePicture } from './draw-plan';

export interface TilePictures {
  state: 'loading' | 'loaded' | 'error';
  /** One per face, long side across. */
  pictures: readonly CanvasImageSource[];
  /** The first face's own size, to know its format when the metadata does not say. */
  size?: { width: number; height: number };
}

const LOADING: TilePictures = { state: 'loading', pictures: [] };

async function loadPicture(filename: string): Promise<HTMLImageElement> {
  const image = new Image();
  image.src = ldImageUrl(filename);
  await image.decode();
  return image;
}

export function useTilePictures(faces: readonly LdImage[]): TilePictures {
  // Kept with the faces it belongs to: other faces read as loading until theirs arrive.
  const [loaded, setLoaded] = useState<{ faces: readonly LdImage[]; result: TilePictures }>();
  useEffect(() => {
    let current = true;
    Promise.all(faces.map((face) => loadPicture(face.filename)))
      .then((images) => {
        if (!current) return;
        const first = images[0];
        setLoaded({
          faces,
          result: {
            state: 'loaded',
            pictures: images.map(landscapePicture),
            size: first && { width: first.naturalWidth, height: first.naturalHeight },
          },
        });
      })
      .catch((error: unknown) => {
        console.error('Laying preview: a tile picture did not load:', error);
        if (current) setLoaded({ faces, result: { state: 'error', pictures: [] } });
      });
    return () => {
      current = false;
    };
  }, [faces]);
  return loaded?.faces === faces ? loaded.result : LOADING;
}
