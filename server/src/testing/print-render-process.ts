// A print render in a process of its own (imaging/print/memory.test.ts, bench/print.ts): its peak
// resident memory is then the render's alone. Takes the task as JSON in argv[2] ('baseline':
// none, to measure the same process without a render); prints one JSON line: the result, the
// seconds taken and the peak resident set in bytes.
import sharp from 'sharp';
import { renderWithProgress } from '../imaging/print/progress.js';
import type { PrintWorkerTask } from '../imaging/print/protocol.js';

// As the print worker does: every pixel is computed once.
sharp.cache(false);

const argument = process.argv[2] ?? 'baseline';
const start = performance.now();
let lastFraction = 0;
const result =
  argument === 'baseline'
    ? await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
        .tiff()
        .toBuffer()
        .then(() => undefined)
    : await renderWithProgress(JSON.parse(argument) as PrintWorkerTask, (fraction) => {
        lastFraction = fraction;
      });
console.log(
  JSON.stringify({
    ...result,
    seconds: (performance.now() - start) / 1000,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    lastFraction,
  }),
);
