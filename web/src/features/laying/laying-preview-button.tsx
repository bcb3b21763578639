import { TEXT_BUNDLES, type LdImage } from '@tessera/contract';
import { useState } from 'react';
import { LayingPreviewDialog } from './laying-preview-dialog';
import { useTexts } from '../../lib/i18n';

/** "Laying preview" in the LD details: opens the floor of the image, or of its series' faces. */
export function LayingPreviewButton({
  image,
  faces,
}: {
  image: LdImage;
  faces: readonly LdImage[];
}) {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button laying-open" onClick={() => setOpen(true)}>
        {TEXTS.layingPreviewButton}
      </button>
      {open && <LayingPreviewDialog image={image} faces={faces} onClose={() => setOpen(false)} />}
    </>
  );
}
