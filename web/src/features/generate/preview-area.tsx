import { TEXT_BUNDLES, ldImageUrl } from '@tessera/contract';
import type { LdImage } from '@tessera/contract';
import { useState } from 'react';
import { GenerateIcon } from '../../components/icons';
import { useTexts } from '../../lib/i18n';

export interface PreviewAreaProps {
  image: LdImage | null;
  busy: boolean;
  percent: number;
  onOpen: (image: LdImage) => void;
}

/**
 * SPEC §2's preview (checklist G5): a placeholder, a loading animation or the generated image,
 * which opens its details when clicked. While a batch goes on, the last image stays in view with
 * the animation over it.
 */
export function PreviewArea({ image, busy, percent, onOpen }: PreviewAreaProps) {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const texts = useTexts(TEXT_BUNDLES.generate);
  // The file whose <img> failed; another image clears the error by being another file.
  const [failed, setFailed] = useState<string | null>(null);

  const loading = busy && (
    <div className={image ? 'preview-loading is-over' : 'preview-loading'} role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{texts.generatingImage(percent)}</span>
    </div>
  );

  if (!image) {
    return (
      <div className="preview" aria-label={texts.preview}>
        {loading || (
          <div className="preview-placeholder">
            <GenerateIcon />
            <p>{texts.placeholder}</p>
          </div>
        )}
      </div>
    );
  }

  return (
    <div className="preview" aria-label={texts.preview}>
      {failed === image.filename ? (
        <p className="preview-error" role="alert">
          {TEXTS.generatedImageLoadError}
        </p>
      ) : (
        <button
          type="button"
          className="preview-image-button"
          aria-label={texts.openDetails(image.filename)}
          onClick={() => onOpen(image)}
        >
          <img
            className="preview-image"
            src={ldImageUrl(image.filename)}
            alt={image.filename}
            onError={() => setFailed(image.filename)}
          />
        </button>
      )}
      {loading}
    </div>
  );
}
