import { useMessagingState } from '../lib/mqtt';
import type { ConnectionStatus as Status } from '../lib/mqtt';

const TEXT: Record<Status, string> = {
  connected: 'Connected',
  connecting: 'Connecting…',
  reconnecting: 'Connecting…',
  offline: 'Disconnected',
  error: 'Disconnected',
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
  return (
    <div
      role="status"
      aria-label="Messaging connection"
      className={`connection connection-${TONE[status]}`}
      data-state={status}
      title={status !== 'connected' && error !== null ? error : undefined}
    >
      <span className="connection-dot" aria-hidden="true" />
      {TEXT[status]}
    </div>
  );
}
