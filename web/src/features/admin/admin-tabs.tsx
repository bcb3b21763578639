import { ADMIN_SCREEN_PATHS, TEXT_BUNDLES } from '@tessera/contract';
import { NavLink } from 'react-router';
import { useTexts } from '../../lib/i18n';
import './admin.css';

/** The admin screens' tabs, above each of them. */
export function AdminTabs() {
  const T = useTexts(TEXT_BUNDLES.admin);
  const webhookTexts = useTexts(TEXT_BUNDLES.webhooks);
  const retentionTexts = useTexts(TEXT_BUNDLES.retention);
  const tabs = [
    { to: ADMIN_SCREEN_PATHS.users, label: T.usersTab },
    { to: ADMIN_SCREEN_PATHS.audit, label: T.auditTab },
    { to: ADMIN_SCREEN_PATHS.retention, label: retentionTexts.tab },
    { to: ADMIN_SCREEN_PATHS.webhooks, label: webhookTexts.adminTab },
  ];
  return (
    <nav className="admin-tabs" aria-label={T.tabsLabel}>
      {tabs.map((tab) => (
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
