import { Outlet } from 'react-router';
import { useHdNotifications } from '../features/notifications';
import { HdToasts } from '../features/toasts';
import { Sidebar } from './sidebar';

/** Every screen but Login: the sidebar, the screen beside it, and the HD toast over both. */
export function Layout() {
  useHdNotifications();
  return (
    <div className="shell">
      <Sidebar />
      <main className="shell-main">
        <Outlet />
      </main>
      <HdToasts />
    </div>
  );
}
