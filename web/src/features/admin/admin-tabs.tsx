import { ADMIN_SCREEN_PATHS, ADMIN_TEXTS, RETENTION_TEXTS, WEBHOOK_TEXTS } from '@tessera/contract';
import { NavLink } from 'react-router';
import './admin.css';

const TABS = [
  { to: ADMIN_SCREEN_PATHS.users, label: ADMIN_TEXTS.usersTab },
  { to: ADMIN_SCREEN_PATHS.audit, label: ADMIN_TEXTS.auditTab },
  { to: ADMIN_SCREEN_PATHS.retention, label: RETENTION_TEXTS.tab },
  { to: ADMIN_SCREEN_PATHS.webhooks, label: WEBHOOK_TEXTS.adminTab },
];

/** The admin screens' tabs, above each of them. */
export function AdminTabs() {
  return (
    <nav className="admin-tabs" aria-label={ADMIN_TEXTS.tabsLabel}>
      {TABS.map((tab) => (
        <NavLink
          key={tab.to}
          to={tab.to}
          className={({ isActive }) => (isActive ? 'admin-tab is-active' : 'admin-tab')}
        >
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}
