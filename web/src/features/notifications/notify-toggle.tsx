import { useState } from 'react';
import { BellIcon } from '../../components/icons';
import { setNotifications, useNotificationSetting } from './notification-preference';

const TITLES = {
  on: 'Notifications on: you hear when an HD image finishes or fails while you are elsewhere',
  off: 'Notify me when an HD image finishes or fails while I am elsewhere',
  blocked: 'Notifications are blocked for this site in the browser settings',
  unsupported: 'This browser cannot show notifications',
} as const;

/** The sidebar's opt-in to HD notifications. */
export function NotifyToggle() {
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
      aria-label="HD notifications"
      aria-pressed={setting === 'on'}
      title={TITLES[setting]}
      disabled={unavailable || asking}
      onClick={() => void toggle()}
    >
      <BellIcon off={setting !== 'on'} />
    </button>
  );
}
