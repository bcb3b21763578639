import { TEXT_BUNDLES } from '@tessera/contract';
import { useState } from 'react';
import { BellIcon } from '../../components/icons';
import { useTexts } from '../../lib/i18n';
import { setNotifications, useNotificationSetting } from './notification-preference';

/** The sidebar's opt-in to HD notifications. */
export function NotifyToggle() {
  const texts = useTexts(TEXT_BUNDLES.hdNotifications);
  const setting = useNotificationSetting();
  const [asking, setAsking] = useState(false);
  const unavailable = setting === 'blocked' || setting === 'unsupported';

  async function toggle() {
    setAsking(true);
    try {
      await setNotifications(setting !== 'on');
    } finally {
      setAsking(false);
    }
  }

  return (
    <button
      type="button"
      className="sidebar-notify"
      aria-label={texts.label}
      aria-pressed={setting === 'on'}
      title={texts.setting[setting]}
      disabled={unavailable || asking}
      onClick={() => void toggle()}
    >
      <BellIcon off={setting !== 'on'} />
    </button>
  );
}
