// Draws a laid floor on a canvas at true scale: grout over the whole room, then every tile's
// picture mapped onto its frame (turned as placed), clipped at the walls.
import type { Quad } from './patterns';
import { turnedFrame, type PlacedTile } from './placement';

export interface PlanDrawing {
  tiles: readonly PlacedTile[];
  roomCm: { width: number; depth: number };
  /** One picture per face, each with its long side across (see landscapePicture). */
  pictures: readonly CanvasImageSource[];
  groutColour: string;
}

/** The canvas's pixel size for a plan `widthPx` wide: the room's proportions. */
export function planPixelSize(roomCm: { width: number; depth: number }, widthPx: number) {
  return {
    width: Math.round(widthPx),
    height: Math.max(1, Math.round((widthPx * roomCm.depth) / roomCm.width)),
  };
}

/** Draws the plan over the whole canvas (its width is the room's width). */
export function drawPlan(canvas: HTMLCanvasElement | OffscreenCanvas, plan: PlanDrawing): void {
  const context = canvas.getContext('2d') as
    CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
  if (!context) return;
  const pixelsPerCm = canvas.width / plan.roomCm.width;
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.fillStyle = plan.groutColour;
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.save();
  context.beginPath();
  context.rect(0, 0, canvas.width, canvas.height);
  context.clip();
  context.imageSmoothingQuality = 'high';
  for (const tile of plan.tiles) {
    const picture = plan.pictures[tile.face] ?? plan.pictures[0];
    if (!picture) continue;
    const { origin, u, v }: Quad = turnedFrame(tile);
    const k = pixelsPerCm;
    // The picture's unit square onto the tile's frame: (1, 0) → u, (0, 1) → v.
    context.setTransform(k * u.x, k * u.y, k * v.x, k * v.y, k * origin.x, k * origin.y);
    context.drawImage(picture, 0, 0, 1, 1);
  }
  context.restore();
  context.setTransform(1, 0, 0, 1, 0, 0);
}

/** The picture turned a quarter when it stands (a slab), so its long side lies across as u does. */
export function landscapePicture(image: HTMLImageElement): CanvasImageSource {
  const { naturalWidth: width, naturalHeight: height } = image;
  if (height <= width) return image;
  const canvas = document.createElement('canvas');
  canvas.width = height;
  canvas.height = width;
  const context = canvas.getContext('2d');
  if (!context) return image;
  // Clockwise: the picture's top edge becomes the right edge, as rectTile stands a tile.
  context.setTransform(0, 1, -1, 0, height, 0);
  context.drawImage(image, 0, 0);
  return canvas;
}
