import { TEXTS, type LdImage } from '@tessera/contract';
import { useState } from 'react';
import { LayingPreviewDialog } from './laying-preview-dialog';

/** "Laying preview" in the LD details: opens the floor of the image (or its series). */
export function LayingPreviewButton({ image }: { image: LdImage }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button laying-open" onClick={() => setOpen(true)}>
        {TEXTS.layingPreviewButton}
      </button>
      {open && <LayingPreviewDialog image={image} onClose={() => setOpen(false)} />}
    </>
  );
}
