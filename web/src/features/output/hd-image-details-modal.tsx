import {
  formatImageDate,
  hdImageUrl,
  hdPixelSize,
  hdPrintSize,
  PRINT_TEXTS,
  sizeLabelFromFactors,
} from '@tessera/contract';
import type { HdImage, HdSizeLabel } from '@tessera/contract';
import { useState } from 'react';
import { Dialog } from '../../components/gallery/dialog';
import { DownloadIcon } from '../../components/icons';
import { useLocale } from '../../lib/i18n';
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
  const size = sizeLabelFromFactors(image.metadata);
  const print = size && printFields(size);
  // Removed by the retention policy: no file to download or print until the HD is ordered again.
  const removed = image.removed_by_retention_at !== undefined;
  const geometry = removed ? undefined : hdGeometry(image);
  // The print dialog is the details' sibling, not its child: Escape in it closes it alone.
  return (
    <>
      <Dialog title="HD Image Details" onClose={onClose} className="hd-details">
        <img className="hd-details-preview" src={image.thumbnail} alt={image.filename} />
        <dl className="hd-details-fields">
          <div>
            <dt>Name</dt>
            <dd>{image.filename}</dd>
          </div>
          <div>
            <dt>Size</dt>
            <dd>{size ?? '-'}</dd>
          </div>
          {print && (
            <>
              <div>
                <dt>Print size</dt>
                <dd>{print.size}</dd>
              </div>
              <div>
                <dt>Resolution</dt>
                <dd>{print.resolution}</dd>
              </div>
            </>
          )}
          <div>
            <dt>Date</dt>
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
              Download
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

/** "30 × 30 cm" (width × height) and "71.7 px/cm (182 dpi)": what the file's density says. */
function printFields(label: HdSizeLabel): { size: string; resolution: string } | undefined {
  const pixels = hdPixelSize(label);
  if (!pixels) return undefined;
  const print = hdPrintSize(label, pixels.width, pixels.height);
  return {
    size: `${print.widthCm} × ${print.heightCm} cm`,
    resolution: `${print.pixelsPerCm.toFixed(1)} px/cm (${Math.round(print.dotsPerInch)} dpi)`,
  };
}
