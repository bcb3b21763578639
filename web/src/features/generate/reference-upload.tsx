import { TEXT_BUNDLES, UPLOAD_EXTENSIONS } from '@tessera/contract';
import { useRef, useState } from 'react';
import type { DragEvent } from 'react';
import { InputIcon } from '../../components/icons';
import { useTexts } from '../../lib/i18n';
import { ReferenceAdvice } from '../reference-prep';
import type { Reference } from './generate-session';

const ACCEPT = UPLOAD_EXTENSIONS.map((extension) => `.${extension}`).join(',');

export interface ReferenceUploadProps {
  reference: Reference | null;
  disabled: boolean;
  /** Shown under the area, e.g. when Generate is pressed without a reference. */
  error: string | undefined;
  /** A file was picked, dropped or prepared; the screen checks it before accepting it. */
  onFile: (file: File) => void;
}

/**
 * The upload area of SPEC §2 (checklist G1): click to choose a file, or drop one on it. Beside it,
 * outside the drop area, the reference's check and its preparation step (issue 27, part 5): a
 * prepared reference comes back through `onFile`, so the spec's checks run on it as on any file.
 */
export function ReferenceUpload({ reference, disabled, error, onFile }: ReferenceUploadProps) {
  const texts = useTexts(TEXT_BUNDLES.generate);
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  function onDragOver(event: DragEvent) {
    if (disabled) return;
    // Without preventDefault the browser would open a dropped file instead of handing it over.
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !disabled) onFile(file);
  }

  const classes = ['upload', dragging && 'is-dragging', error && 'has-error'].filter(Boolean);
  return (
    <>
      <div
        className={classes.join(' ')}
        onDragOver={onDragOver}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="upload-area"
      >
        <button
          type="button"
          className="upload-button"
          disabled={disabled}
          aria-label={
            reference ? texts.changeReference(reference.file.name) : texts.uploadReference
          }
          aria-describedby={error ? 'upload-error' : undefined}
          onClick={() => input.current?.click()}
        >
          {reference ? (
            <>
              <img className="upload-preview" src={reference.url} alt="" />
              <span className="upload-caption">
                <span className="upload-name">{reference.file.name}</span>
                <span className="upload-size">
                  {reference.width}×{reference.height} · {texts.dropToReplace}
                </span>
              </span>
            </>
          ) : (
            <>
              <InputIcon />
              <span className="upload-caption">
                <span className="upload-name">{texts.referenceImage}</span>
                <span className="upload-size">{texts.dropHere}</span>
              </span>
            </>
          )}
        </button>
        <input
          ref={input}
          className="upload-input"
          type="file"
          accept={ACCEPT}
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            const file = event.target.files?.[0];
            // Cleared, so that choosing the same file again is a change too.
            event.target.value = '';
            if (file) onFile(file);
          }}
        />
        {error && (
          <p id="upload-error" className="generate-field-error" role="alert">
            {error}
          </p>
        )}
      </div>
      {reference && <ReferenceAdvice file={reference.file} disabled={disabled} onUse={onFile} />}
    </>
  );
}
