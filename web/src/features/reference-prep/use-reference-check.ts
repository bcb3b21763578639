import type { ReferenceWarning } from '@tessera/contract';
import { useEffect, useState } from 'react';
import { analyseReference } from '../../lib/api/reference-prep';

/** Where the check of the current reference is. */
export type ReferenceCheckState =
  | { state: 'checking' }
  | { state: 'checked'; warnings: readonly ReferenceWarning[] }
  | { state: 'failed'; reason: string };

/**
 * The server's check of `file` (issue 27, part 5), run again whenever the reference changes; a
 * check under way for a reference since replaced is abandoned (its worker stops).
 */
export function useReferenceCheck(file: File): ReferenceCheckState {
  const [check, setCheck] = useState<{ file: File; result: ReferenceCheckState }>({
    file,
    result: { state: 'checking' },
  });
  useEffect(() => {
    const request = new AbortController();
    analyseReference(file, file.name, request.signal).then(
      (analysis) => setCheck({ file, result: { state: 'checked', warnings: analysis.warnings } }),
      (error: unknown) => {
        if (request.signal.aborted) return;
        console.error(`Checking the reference ${file.name} failed:`, error);
        const reason = error instanceof Error ? error.message : String(error);
        setCheck({ file, result: { state: 'failed', reason } });
      },
    );
    return () => request.abort();
  }, [file]);
  // Until the new file's answer comes, the old file's is not shown.
  return check.file === file ? check.result : { state: 'checking' };
}
