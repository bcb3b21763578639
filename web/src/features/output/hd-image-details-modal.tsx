import {
  formatImageDate,
  hdImageUrl,
  hdPixelSize,
  hdPrintSize,
  sizeLabelFromFactors,
  TEXT_BUNDLES,
} from '@tessera/contract';
import type { HdImage, HdSizeLabel } from '@tessera/contract';
import { useState } from 'react';
import { Dialog } from '../../components/gallery/dialog';
import { DownloadIcon } from '../../components/icons';
import { useLocale, useTexts } from '../../lib/i18n';
import { MaterialMapsSection } from '../materials';
import { DetailSection } from './detail-section';
import { hdGeometry } from './hd-geometry';
import { PrintDialog } from './print/print-dialog';
import { PrintFilesList } from './print/print-files-list';
import { RetentionNote } from './retention-note';

/**
 * The HD Image Details modal of SPEC §2 (checklist O3): Name, Size, Date and Download, plus the
 * print size in cm and the resolution the file carries (issue 17), the detail generated against
 * the enlargement, and "Download for print" with the image's print files (issue 26). The server
 * names the downloaded file (Content-Disposition); `download` asks the browser to save it.
 */
export function HdImageDetailsModal({ image, onClose }: { image: HdImage; onClose: () => void }) {
  const [printing, setPrinting] = useState(false);
  const locale = useLocale();
  const T = useTexts(TEXT_BUNDLES.output);
  const PRINT_TEXTS = useTexts(TEXT_BUNDLES.print);
  const DETAIL_TEXTS = useTexts(TEXT_BUNDLES.detail);
  const size = sizeLabelFromFactors(image.metadata);
  const print = size && printOf(size);
  // Removed by the retention policy: no file to download or print until the HD is ordered again.
  const removed = image.removed_by_retention_at !== undefined;
  const geometry = removed ? undefined : hdGeometry(image);
  // The print dialog is the details' sibling, not its child: Escape in it closes it alone.
  return (
    <>
      <Dialog title={T.detailsTitle} onClose={onClose} className="hd-details">
        <img className="hd-details-preview" src={image.thumbnail} alt={image.filename} />
        <dl className="hd-details-fields">
          <div>
            <dt>{T.name}</dt>
            <dd>{image.filename}</dd>
          </div>
          <div>
            <dt>{T.size}</dt>
            <dd>{size ?? '-'}</dd>
          </div>
          {print && (
            <>
              <div>
                <dt>{T.printSize}</dt>
                <dd>{T.printSizeValue(print.widthCm, print.heightCm)}</dd>
              </div>
              <div>
                <dt>{T.resolution}</dt>
                <dd>{DETAIL_TEXTS.pxPerCm(print.pixelsPerCm)}</dd>
              </div>
            </>
          )}
          <div>
            <dt>{T.date}</dt>
            <dd>{formatImageDate(image.metadata, undefined, locale)}</dd>
          </div>
        </dl>
        {geometry && <DetailSection geometry={geometry} />}
        <RetentionNote image={image} place="details" />
        <div className="dialog-actions">
          {geometry && (
            <button type="button" className="button" onClick={() => setPrinting(true)}>
              {PRINT_TEXTS.open}
            </button>
          )}
          {!removed && (
            <a
              className="button button-primary"
              href={hdImageUrl(image.filename)}
              download={image.filename}
            >
              <DownloadIcon />
              {T.download}
            </a>
          )}
        </div>
        <PrintFilesList image={image.filename} />
        <MaterialMapsSection kind="hd" image={image.filename} />
      </Dialog>
      {printing && geometry && (
        <PrintDialog image={image} geometry={geometry} onClose={() => setPrinting(false)} />
      )}
    </>
  );
}

/** The print's width × height in cm and the density the file carries, for a known size. */
function printOf(label: HdSizeLabel) {
  const pixels = hdPixelSize(label);
  return pixels && hdPrintSize(label, pixels.width, pixels.height);
}
