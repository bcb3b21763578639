import { TEXT_BUNDLES } from '@tessera/contract';
import { useTexts } from '../lib/i18n';
import { useMessagingState } from '../lib/mqtt';
import type { ConnectionStatus as Status } from '../lib/mqtt';

type Shown = 'connected' | 'connecting' | 'disconnected';

const SHOWN: Record<Status, Shown> = {
  connected: 'connected',
  connecting: 'connecting',
  reconnecting: 'connecting',
  offline: 'disconnected',
  error: 'disconnected',
};

const TONE: Record<Status, string> = {
  connected: 'ok',
  connecting: 'busy',
  reconnecting: 'busy',
  offline: 'down',
  error: 'down',
};

/** The messaging connection as a person sees it; the last error is in the tooltip. */
export function ConnectionStatus() {
  const { status, error } = useMessagingState();
  const texts = useTexts(TEXT_BUNDLES.shell).connection;
  return (
    <div
      role="status"
      aria-label={texts.label}
      className={`connection connection-${TONE[status]}`}
      data-state={status}
      title={status !== 'connected' && error !== null ? error : undefined}
    >
      <span className="connection-dot" aria-hidden="true" />
      {texts[SHOWN[status]]}
    </div>
  );
}
