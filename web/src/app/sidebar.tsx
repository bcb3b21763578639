import {
  ADMIN_SCREEN_PATHS,
  ADMIN_SCREENS_ROOT,
  API_TOKENS_SCREEN_PATH,
  SCREEN_PATHS,
  TEXT_BUNDLES,
  WEBHOOKS_SCREEN_PATH,
} from '@tessera/contract';
import type { SHELL_TEXTS } from '@tessera/contract';
import { useSuspenseQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { ConnectionStatus } from '../components/connection-status';
import { LanguageSwitch } from '../components/language-switch';
import {
  AdminIcon,
  DashboardIcon,
  GenerateIcon,
  InputIcon,
  KeyIcon,
  OutputIcon,
  SignOutIcon,
  UpscaleIcon,
  WebhookIcon,
} from '../components/icons';
import { useCredentials, useIsAdmin, useSignOut } from '../features/auth';
import { ActiveHdJobsBadge } from '../features/hd';
import { NotifyToggle } from '../features/notifications';
import { StorageMeter } from '../features/quotas';
import { themeQuery } from '../lib/config-queries';
import { useTexts } from '../lib/i18n';
import { themeAsset } from '../lib/theme';

interface NavigationItem {
  to: string;
  label: string;
  icon: ReactNode;
  /** Marked current on every path under this one too (the admin screens' tabs). */
  section?: string;
}

function navigation(labels: (typeof SHELL_TEXTS)['nav']): NavigationItem[] {
  return [
    { to: SCREEN_PATHS.dashboard, label: labels.dashboard, icon: <DashboardIcon /> },
    { to: SCREEN_PATHS.generate, label: labels.generate, icon: <GenerateIcon /> },
    { to: SCREEN_PATHS.output, label: labels.output, icon: <OutputIcon /> },
    { to: SCREEN_PATHS.upscale, label: labels.upscale, icon: <UpscaleIcon /> },
    { to: SCREEN_PATHS.input, label: labels.input, icon: <InputIcon /> },
  ];
}

/** Shown to admins only (issue 29): members see the spec's sidebar, unchanged. */
function adminNavigation(label: string): NavigationItem {
  return {
    to: ADMIN_SCREEN_PATHS.users,
    label,
    icon: <AdminIcon />,
    section: `${ADMIN_SCREENS_ROOT}/`,
  };
}

/** The sidebar of every screen but Login (checklist R2, R3). */
export function Sidebar() {
  const { data: theme } = useSuspenseQuery(themeQuery);
  const credentials = useCredentials();
  const signOut = useSignOut();
  const isAdmin = useIsAdmin();
  const texts = useTexts(TEXT_BUNDLES.shell);
  const adminTexts = useTexts(TEXT_BUNDLES.admin);
  const tokenTexts = useTexts(TEXT_BUNDLES.apiTokens);
  const webhookTexts = useTexts(TEXT_BUNDLES.webhooks);
  const main = navigation(texts.nav);
  const items = isAdmin ? [...main, adminNavigation(adminTexts.navLabel)] : main;
  const { pathname } = useLocation();

  return (
    <aside className="sidebar">
      <Link to={SCREEN_PATHS.dashboard} className="sidebar-logo">
        <img src={themeAsset(theme, 'logo.svg')} alt="Tessera" width="56" height="64" />
      </Link>
      <nav className="sidebar-nav" aria-label={texts.mainNavigation}>
        <ul className="sidebar-list">
          {items.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                aria-label={item.label}
                title={item.label}
                className={({ isActive }) =>
                  isActive || (item.section !== undefined && pathname.startsWith(item.section))
                    ? 'nav-link is-active'
                    : 'nav-link'
                }
              >
                {item.icon}
              </NavLink>
              {item.to === SCREEN_PATHS.upscale && <ActiveHdJobsBadge />}
            </li>
          ))}
        </ul>
      </nav>
      <div className="sidebar-footer">
        <StorageMeter />
        <ConnectionStatus />
        <NotifyToggle />
        <LanguageSwitch />
        {/* Account things beside Sign out (issue 30, parts 1 and 3), not screens of the spec's nav. */}
        <NavLink to={API_TOKENS_SCREEN_PATH} className={accountLinkClass}>
          <KeyIcon />
          <span>{tokenTexts.navLabel}</span>
        </NavLink>
        <NavLink to={WEBHOOKS_SCREEN_PATH} className={accountLinkClass}>
          <WebhookIcon />
          <span>{webhookTexts.navLabel}</span>
        </NavLink>
        <button
          type="button"
          className="sidebar-signout"
          title={credentials ? texts.signedInAs(credentials.username) : undefined}
          disabled={signOut.isPending}
          onClick={() => signOut.mutate()}
        >
          <SignOutIcon />
          <span>{texts.signOut}</span>
        </button>
      </div>
    </aside>
  );
}

/** An account link beside Sign out: styled as it is, marked while its screen is shown. */
function accountLinkClass({ isActive }: { isActive: boolean }): string {
  return isActive ? 'sidebar-signout sidebar-account is-active' : 'sidebar-signout sidebar-account';
}
