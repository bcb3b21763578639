// Notifications: the opt-in browser notification of finished or failed HD jobs.
export { NotifyToggle } from './notify-toggle';
export { useHdNotifications } from './use-hd-notifications';
