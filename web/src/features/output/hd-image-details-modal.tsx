import { formatImageDate, sizeLabelFromFactors } from '@tessera/contract';
import type { HdImage } from '@tessera/contract';
import { Dialog } from '../../components/gallery/dialog';
import { DownloadIcon } from '../../components/icons';
import { hdImageUrl } from '../../lib/api/images';

/**
 * The HD Image Details modal of SPEC §2 (checklist O3): Name, Size, Date and Download. The
 * server names the downloaded file (Content-Disposition); `download` asks the browser to save it.
 */
export function HdImageDetailsModal({ image, onClose }: { image: HdImage; onClose: () => void }) {
  const size = sizeLabelFromFactors(image.metadata);
  return (
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
        <div>
          <dt>Date</dt>
          <dd>{formatImageDate(image.metadata)}</dd>
        </div>
      </dl>
      <div className="dialog-actions">
        <a
          className="button button-primary"
          href={hdImageUrl(image.filename)}
          download={image.filename}
        >
          <DownloadIcon />
          Download
        </a>
      </div>
    </Dialog>
  );
}
