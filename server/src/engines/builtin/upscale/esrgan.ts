/**
 * The ESRGAN network's interface, whatever runs it (onnx-model.ts, or model.ts on tfjs), and the
 * folding of its last layers both runtimes share. Imports no runtime: production code (the ONNX
 * conversion, the worker) takes these from here, so tfjs (a development dependency, the fallback)
 * is loaded only when it runs.
 */
import type { ModelScale } from './plan.js';

/** The network, ready to run on tiles. */
export interface Esrgan {
  scale: ModelScale;
  /**
   * Runs the network on one RGB tile (`height`×`width`, float values 0–255, row-major) and
   * returns its output (`height·scale`×`width·scale`×3), clamped to 0–255.
   */
  run(input: Float32Array, width: number, height: number): Promise<Float32Array>;
}

/**
 * A 3×3 convolution at the output resolution after a nearest ×s upsampling, as a 3×3 convolution
 * at the input resolution with s²·colours outputs, ordered for depth-to-space (output channel
 * (a·s + b)·colours + c is colour c of the output pixel at offset (a, b) in its s×s block).
 *
 * Output pixel (s·i + a, s·j + b) reads upsampled pixels (s·i + a + dy, s·j + b + dx) for dy, dx
 * in −1..1, which are input pixel (i + ⌊(a + dy)/s⌋, j + ⌊(b + dx)/s⌋): each original tap adds its
 * weights to the input-resolution tap it falls on. `kernel` is [3][3][channels][colours] (HWIO).
 */
export function subPixelKernel(
  kernel: Float32Array,
  channels: number,
  colours: number,
  scale: number,
): Float32Array {
  const outputs = colours * scale * scale;
  const result = new Float32Array(9 * channels * outputs);
  for (let a = 0; a < scale; a++) {
    for (let b = 0; b < scale; b++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const ty = Math.floor((a + dy) / scale) + 1;
          const tx = Math.floor((b + dx) / scale) + 1;
          for (let ci = 0; ci < channels; ci++) {
            for (let c = 0; c < colours; c++) {
              const from = (((dy + 1) * 3 + (dx + 1)) * channels + ci) * colours + c;
              const to = ((ty * 3 + tx) * channels + ci) * outputs + (a * scale + b) * colours + c;
              result[to] = (result[to] ?? 0) + (kernel[from] ?? 0);
            }
          }
        }
      }
    }
  }
  return result;
}
