import { detailFigures, TEXT_BUNDLES } from '@tessera/contract';
import { useTexts } from '../../lib/i18n';
import type { HdGeometry } from './hd-geometry';

/**
 * Honest detail (issue 26, part 2): pixels per centimetre of each stage, from the LD image to the
 * print file, and how much of the final detail the engine generated; the rest is enlargement.
 */
export function DetailSection({ geometry, printDpi }: { geometry: HdGeometry; printDpi?: number }) {
  const DETAIL_TEXTS = useTexts(TEXT_BUNDLES.detail);
  const figures = detailFigures({ ...geometry, printDpi });
  const rows: [string, number | undefined][] = [
    [DETAIL_TEXTS.ld, figures.ldPxPerCm],
    [DETAIL_TEXTS.generated, figures.generatedPxPerCm],
    [DETAIL_TEXTS.hd, figures.hdPxPerCm],
    ...(figures.printPxPerCm === undefined
      ? []
      : [[DETAIL_TEXTS.print, figures.printPxPerCm] as [string, number]]),
  ];
  return (
    <section className="detail-section" aria-label={DETAIL_TEXTS.heading}>
      <h3 className="hd-details-heading">{DETAIL_TEXTS.heading}</h3>
      <dl className="hd-details-fields">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value === undefined ? DETAIL_TEXTS.notRecorded : DETAIL_TEXTS.pxPerCm(value)}</dd>
          </div>
        ))}
      </dl>
      <p className="detail-share">
        {figures.generatedShare === undefined
          ? DETAIL_TEXTS.shareNotRecorded
          : DETAIL_TEXTS.share(figures.generatedShare, printDpi === undefined ? 'hd' : 'print')}
      </p>
    </section>
  );
}
