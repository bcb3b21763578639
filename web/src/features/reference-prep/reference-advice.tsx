import { TEXT_BUNDLES, type ReferenceWarningCode } from '@tessera/contract';
import { lazy, Suspense, useState } from 'react';
import { useTexts } from '../../lib/i18n';
import { useReferenceCheck } from './use-reference-check';
import './reference-prep.css';

// The preparation step loads with its dialog (and ml-matrix with it), when it is opened.
const PrepDialog = lazy(() => import('./prep-dialog'));

export interface ReferenceAdviceProps {
  /** The reference the form holds. */
  file: File;
  disabled: boolean;
  /** The prepared reference, to be taken as any chosen file is (the upload's checks first). */
  onUse: (file: File) => void;
}

/** The tool each warning calls for first. */
const FIRST_TOOL: Record<ReferenceWarningCode, 'crop' | 'perspective' | 'lighting'> = {
  perspective: 'perspective',
  object: 'crop',
  lighting: 'lighting',
};

/**
 * Beside the reference (issue 27, part 5): the server's check of it, its warnings in words, and
 * the "Prepare reference" button that opens the preparation step (crop, perspective, lighting).
 */
export function ReferenceAdvice({ file, disabled, onUse }: ReferenceAdviceProps) {
  const texts = useTexts(TEXT_BUNDLES.referencePrep);
  const warningTexts = useTexts(TEXT_BUNDLES.referenceWarnings);
  const check = useReferenceCheck(file);
  const [open, setOpen] = useState(false);
  const warnings = check.state === 'checked' ? check.warnings : [];
  const first = warnings[0];
  return (
    <div className="reference-advice">
      <div aria-live="polite">
        {check.state === 'checking' && <p className="reference-advice-note">{texts.checking}</p>}
        {check.state === 'failed' && (
          <p className="reference-advice-note">{texts.checkFailed(check.reason)}</p>
        )}
        {warnings.length > 0 && (
          <section className="reference-warnings" aria-label={texts.warningsTitle}>
            <p className="reference-warnings-title">{texts.warningsTitle}</p>
            <ul className="reference-warnings-list">
              {warnings.map((warning) => (
                // By its code, in the language shown (the server writes the default one).
                <li key={warning.code} data-code={warning.code}>
                  {warningTexts[warning.code]}
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
      <button
        type="button"
        className={`button button-small${warnings.length > 0 ? ' button-primary' : ''}`}
        disabled={disabled}
        onClick={() => setOpen(true)}
      >
        {texts.prepare}
      </button>
      {open && (
        <Suspense fallback={null}>
          <PrepDialog
            file={file}
            firstTool={first ? FIRST_TOOL[first.code] : 'crop'}
            onClose={() => setOpen(false)}
            onUse={(prepared) => {
              setOpen(false);
              onUse(prepared);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
