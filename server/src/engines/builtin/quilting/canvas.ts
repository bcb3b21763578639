/**
 * The output being quilted, and the P×P window of canvas pixels that the patch being placed
 * covers (on a torus when seamless).
 */
import { wrapOrClip } from './torus.js';

export interface Canvas {
  W: number;
  H: number;
  seamless: boolean;
  /** RGBA. */
  data: Uint8Array;
  /** 1 where a patch has been pasted. */
  filled: Uint8Array;
  /** Per pixel, the reference pixel (y · Wr + x) it was copied from, on its side of the cuts. */
  source: Int32Array;
  /** Per pixel, the luminance gradient (x, y) of its source in the reference: the structure. */
  grad: Int16Array;
}

export function createCanvas(W: number, H: number, seamless: boolean): Canvas {
  return {
    W,
    H,
    seamless,
    data: new Uint8Array(W * H * 4),
    filled: new Uint8Array(W * H),
    source: new Int32Array(W * H).fill(-1),
    grad: new Int16Array(W * H * 2),
  };
}

/** A patch window: its origin and, per window column/row, the canvas column/row (−1: outside). */
export class PatchWindow {
  readonly colMap: Int32Array;
  readonly rowMap: Int32Array;
  x0 = 0;
  y0 = 0;
  constructor(readonly P: number) {
    this.colMap = new Int32Array(P);
    this.rowMap = new Int32Array(P);
  }
  moveTo(canvas: Canvas, x0: number, y0: number): void {
    this.x0 = x0;
    this.y0 = y0;
    for (let u = 0; u < this.P; u++) this.colMap[u] = wrapOrClip(x0 + u, canvas.W, canvas.seamless);
    for (let v = 0; v < this.P; v++) this.rowMap[v] = wrapOrClip(y0 + v, canvas.H, canvas.seamless);
  }
}
