import type { RawImage } from '../imaging/raw-image.js';

/** The image cut into `block`² squares, shuffled (seeded): the same pixels, the runs broken. */
export function shuffledBlocks(image: RawImage, block: number): RawImage {
  const { width: W, height: H } = image;
  const nx = Math.floor(W / block);
  const ny = Math.floor(H / block);
  const order = Array.from({ length: nx * ny }, (_, k) => k);
  let s = 7;
  for (let k = order.length - 1; k > 0; k--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (k + 1);
    const t = order[k] ?? k;
    order[k] = order[j] ?? j;
    order[j] = t;
  }
  const data = new Uint8Array(nx * block * ny * block * 4);
  const w = nx * block;
  order.forEach((from, to) => {
    const fx = (from % nx) * block;
    const fy = Math.floor(from / nx) * block;
    const tx = (to % nx) * block;
    const ty = Math.floor(to / nx) * block;
    for (let y = 0; y < block; y++) {
      const src = ((fy + y) * W + fx) * 4;
      data.set(image.data.subarray(src, src + block * 4), ((ty + y) * w + tx) * 4);
    }
  });
  return { data, width: w, height: ny * block };
}
