import { TEXT_BUNDLES } from '@tessera/contract';
import { useEffect, useRef } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import type { Point, Quad } from './homography';
import { drawPixels } from './image-io';
import { useTexts } from '../../lib/i18n';
import type { Pixels, Rect } from './pixels';

export interface PrepStageProps {
  pixels: Pixels;
  tool: 'crop' | 'perspective';
  /** The crop rectangle drawn so far, in the picture's pixels. */
  rect: Rect | null;
  onRect: (rect: Rect | null) => void;
  /** The four corners, top-left first, clockwise, in the picture's pixels. */
  corners: Quad;
  onCorners: (corners: Quad) => void;
}

/**
 * The picture being prepared, with what the tool draws on it: a rectangle dragged out for the
 * crop, four corner handles for the perspective (dragged with the mouse or a finger, or moved
 * with the arrow keys, Shift for ten pixels at a time).
 */
export function PrepStage({ pixels, tool, rect, onRect, corners, onCorners }: PrepStageProps) {
  const texts = useTexts(TEXT_BUNDLES.referencePrep);
  const canvas = useRef<HTMLCanvasElement>(null);
  const drag = useRef<{ kind: 'rect'; from: Point } | { kind: 'corner'; index: number } | null>(
    null,
  );
  const { width, height } = pixels;

  useEffect(() => {
    if (canvas.current) drawPixels(canvas.current, pixels);
  }, [pixels]);

  /** The event's place in the picture's pixels, kept inside it. */
  function at(event: PointerEvent): Point {
    const box = canvas.current?.getBoundingClientRect();
    if (!box || box.width === 0 || box.height === 0) return { x: 0, y: 0 };
    const x = ((event.clientX - box.left) / box.width) * width;
    const y = ((event.clientY - box.top) / box.height) * height;
    return { x: Math.min(width, Math.max(0, x)), y: Math.min(height, Math.max(0, y)) };
  }

  function moveCorner(index: number, point: Point) {
    onCorners(corners.map((corner, k) => (k === index ? point : corner)) as unknown as Quad);
  }

  function onPointerMove(event: PointerEvent) {
    const current = drag.current;
    if (!current) return;
    const point = at(event);
    if (current.kind === 'corner') moveCorner(current.index, point);
    else onRect(rectBetween(current.from, point));
  }

  function onKey(index: number, event: KeyboardEvent) {
    const step = event.shiftKey ? 10 : 1;
    const moves: Record<string, Point> = {
      ArrowLeft: { x: -step, y: 0 },
      ArrowRight: { x: step, y: 0 },
      ArrowUp: { x: 0, y: -step },
      ArrowDown: { x: 0, y: step },
    };
    const move = moves[event.key];
    const corner = corners[index];
    if (!move || !corner) return;
    event.preventDefault();
    moveCorner(index, {
      x: Math.min(width, Math.max(0, corner.x + move.x)),
      y: Math.min(height, Math.max(0, corner.y + move.y)),
    });
  }

  const percent = (p: Point) => ({
    left: `${(p.x / width) * 100}%`,
    top: `${(p.y / height) * 100}%`,
  });
  const polygon = corners.map((p) => `${p.x},${p.y}`).join(' ');

  return (
    <div
      className={`prep-stage prep-stage-${tool}`}
      onPointerMove={onPointerMove}
      onPointerUp={() => (drag.current = null)}
      onPointerCancel={() => (drag.current = null)}
    >
      <canvas
        ref={canvas}
        className="prep-canvas"
        role="img"
        aria-label={texts.working}
        onPointerDown={(event) => {
          if (tool !== 'crop') return;
          event.currentTarget.setPointerCapture(event.pointerId);
          drag.current = { kind: 'rect', from: at(event) };
          onRect(null);
        }}
      />
      <svg className="prep-overlay" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none">
        {tool === 'crop' && rect && (
          <>
            <path
              className="prep-shade"
              fillRule="evenodd"
              d={`M0 0H${width}V${height}H0Z M${rect.x} ${rect.y}h${rect.width}v${rect.height}h${-rect.width}Z`}
            />
            <rect
              className="prep-outline"
              aria-label={texts.cropArea}
              x={rect.x}
              y={rect.y}
              width={rect.width}
              height={rect.height}
            />
          </>
        )}
        {tool === 'perspective' && <polygon className="prep-outline" points={polygon} />}
      </svg>
      {tool === 'perspective' &&
        corners.map((corner, index) => (
          <button
            key={texts.cornerNames[index]}
            type="button"
            className="prep-handle"
            style={percent(corner)}
            aria-label={texts.corner(texts.cornerNames[index] ?? '')}
            onPointerDown={(event) => {
              event.currentTarget.setPointerCapture(event.pointerId);
              drag.current = { kind: 'corner', index };
            }}
            onKeyDown={(event) => onKey(index, event)}
          />
        ))}
    </div>
  );
}

/** The rectangle with corners `a` and `b`, in either order. */
function rectBetween(a: Point, b: Point): Rect {
  return {
    x: Math.min(a.x, b.x),
    y: Math.min(a.y, b.y),
    width: Math.abs(a.x - b.x),
    height: Math.abs(a.y - b.y),
  };
}
