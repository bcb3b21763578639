import { SCREEN_PATHS } from '@tessera/contract';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useHdStatus } from '../../lib/messaging';
import { FAILURE_SETTLE_MS, hdNotificationFor, inBackground } from './hd-notification';
import type { HdNotification } from './hd-notification';
import { notificationSetting } from './notification-preference';

/**
 * While the person has opted in and looks elsewhere, a finished or failed HD job becomes a
 * browser notification; clicking it brings the tab back on Output. A failure the server retries
 * (its 'error' is followed by 'queued') is not told.
 */
export function useHdNotifications(): void {
  const navigate = useNavigate();
  const waitingFailures = useRef(new Map<string, number>());

  useEffect(() => {
    const failures = waitingFailures.current;
    return () => {
      for (const timer of failures.values()) window.clearTimeout(timer);
      failures.clear();
    };
  }, []);

  function show(notification: HdNotification) {
    if (notificationSetting() !== 'on' || !inBackground(document)) return;
    const shown = new Notification(notification.title, {
      body: notification.body,
      tag: notification.tag,
    });
    shown.onclick = () => {
      window.focus();
      void navigate(SCREEN_PATHS.output);
      shown.close();
    };
  }

  useHdStatus((event) => {
    if (event.kind !== 'status') return;
    const { message } = event;
    const failures = waitingFailures.current;
    if (message.status === 'queued') {
      window.clearTimeout(failures.get(message.id));
      failures.delete(message.id);
      return;
    }
    const notification = hdNotificationFor(message);
    if (notification === null) return;
    if (message.status === 'finished') {
      show(notification);
      return;
    }
    window.clearTimeout(failures.get(message.id));
    failures.set(
      message.id,
      window.setTimeout(() => {
        failures.delete(message.id);
        show(notification);
      }, FAILURE_SETTLE_MS),
    );
  });
}
