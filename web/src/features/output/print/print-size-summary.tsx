import {
  printChannels,
  printPixelSize,
  printUncompressedBytes,
  type PrintProfile,
  type PrintSettings,
  TEXT_BUNDLES,
} from '@tessera/contract';
import { useTexts } from '../../../lib/i18n';
import type { HdGeometry } from '../hd-geometry';
import type { usePrintEstimate } from './print-queries';

export interface PrintSizeSummaryProps {
  geometry: HdGeometry;
  settings: PrintSettings;
  profile: PrintProfile | undefined;
  estimate: ReturnType<typeof usePrintEstimate>;
}

/**
 * What the print file will be, before it is ordered: its pixels and physical size with the
 * bleed (computed here, exactly as the server will), its bytes uncompressed (exact) and the
 * server's estimate of the compressed file.
 */
export function PrintSizeSummary({ geometry, settings, profile, estimate }: PrintSizeSummaryProps) {
  const PRINT_TEXTS = useTexts(TEXT_BUNDLES.print);
  const pixels = printPixelSize(geometry, settings.dpi, settings.bleedMm);
  const channels = printChannels(profile?.colourSpace ?? 'rgb');
  const uncompressed = printUncompressedBytes(pixels, channels, settings.bitDepth);
  const rows: [string, string][] = [
    [PRINT_TEXTS.pixels, PRINT_TEXTS.pixelSize(pixels.width, pixels.height)],
    [PRINT_TEXTS.physicalSize, PRINT_TEXTS.physicalSizeValue(geometry, settings.bleedMm)],
    [PRINT_TEXTS.uncompressed, PRINT_TEXTS.bytes(uncompressed)],
    [
      PRINT_TEXTS.estimated,
      estimate.estimate
        ? PRINT_TEXTS.estimateValue(estimate.estimate.estimatedBytes)
        : estimate.failed
          ? PRINT_TEXTS.estimateError
          : PRINT_TEXTS.estimating,
    ],
  ];
  return (
    <dl className="hd-details-fields print-summary" aria-live="polite">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
