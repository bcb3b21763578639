import { TEXT_BUNDLES } from '@tessera/contract';
import { RefreshIcon } from '../icons';
import { useTexts } from '../../lib/i18n';

/** SPEC §2 Refresh (checklist D2, O1): reads 'Refreshing...' and is disabled while busy. */
export function RefreshButton({ busy, onRefresh }: { busy: boolean; onRefresh: () => void }) {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const texts = useTexts(TEXT_BUNDLES.gallery);
  return (
    <button
      type="button"
      className="button gallery-refresh"
      disabled={busy}
      aria-busy={busy}
      onClick={onRefresh}
    >
      <RefreshIcon />
      {busy ? TEXTS.refreshing : texts.refresh}
    </button>
  );
}
