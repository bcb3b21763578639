import { Outlet } from 'react-router';
import { Sidebar } from './sidebar';

/** Every screen but Login: the sidebar, and the screen beside it. */
export function Layout() {
  return (
    <div className="shell">
      <Sidebar />
      <main className="shell-main">
        <Outlet />
      </main>
    </div>
  );
}
