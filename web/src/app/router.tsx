import {
  ADMIN_SCREEN_PATHS,
  ADMIN_SCREENS_ROOT,
  API_TOKENS_SCREEN_PATH,
  SCREEN_PATHS,
  WEBHOOKS_SCREEN_PATH,
} from '@tessera/contract';
import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { LoginScreen } from '../features/auth';
import { DashboardScreen } from '../features/dashboard';
import { GenerateScreen } from '../features/generate';
import { InputScreen } from '../features/input';
import { OutputScreen } from '../features/output';
import { UpscaleScreen } from '../features/upscale';
import { Layout } from './layout';
import { NotFound } from './not-found';
import { RequireAdmin } from './require-admin';
import { RequireSession } from './require-session';
import { StartUpLoading } from './startup';

// The admin screens load on demand, so members never fetch them (issue 29).
const AdminUsersScreen = lazy(() =>
  import('../features/admin').then((admin) => ({ default: admin.AdminUsersScreen })),
);
const AdminAuditScreen = lazy(() =>
  import('../features/admin').then((admin) => ({ default: admin.AdminAuditScreen })),
);
// The tokens screen too: most sessions never open it (issue 30, part 1).
const ApiTokensScreen = lazy(() =>
  import('../features/api-tokens').then((tokens) => ({ default: tokens.ApiTokensScreen })),
);
const AdminRetentionScreen = lazy(() =>
  import('../features/admin').then((admin) => ({ default: admin.AdminRetentionScreen })),
);
const AdminWebhooksScreen = lazy(() =>
  import('../features/admin').then((admin) => ({ default: admin.AdminWebhooksScreen })),
);
// The webhooks screen too: most sessions never open it (issue 30, part 3).
const WebhooksScreen = lazy(() =>
  import('../features/webhooks').then((webhooks) => ({ default: webhooks.WebhooksScreen })),
);

/**
 * Routes of SPEC §2 (checklist R1, R2): Login alone, every other screen inside the sidebar layout
 * and behind the session check.
 */
const router = createBrowserRouter([
  { path: SCREEN_PATHS.login, element: <LoginScreen /> },
  {
    element: (
      <RequireSession>
        <Layout />
      </RequireSession>
    ),
    children: [
      { path: SCREEN_PATHS.dashboard, element: <DashboardScreen /> },
      { path: SCREEN_PATHS.generate, element: <GenerateScreen /> },
      { path: SCREEN_PATHS.output, element: <OutputScreen /> },
      { path: SCREEN_PATHS.upscale, element: <UpscaleScreen /> },
      { path: SCREEN_PATHS.input, element: <InputScreen /> },
      { path: API_TOKENS_SCREEN_PATH, element: <ApiTokensScreen /> },
      { path: WEBHOOKS_SCREEN_PATH, element: <WebhooksScreen /> },
      {
        path: ADMIN_SCREEN_PATHS.users,
        element: (
          <RequireAdmin>
            <AdminUsersScreen />
          </RequireAdmin>
        ),
      },
      {
        path: ADMIN_SCREEN_PATHS.audit,
        element: (
          <RequireAdmin>
            <AdminAuditScreen />
          </RequireAdmin>
        ),
      },
      {
        path: ADMIN_SCREEN_PATHS.retention,
        element: (
          <RequireAdmin>
            <AdminRetentionScreen />
          </RequireAdmin>
        ),
      },
      {
        path: ADMIN_SCREEN_PATHS.webhooks,
        element: (
          <RequireAdmin>
            <AdminWebhooksScreen />
          </RequireAdmin>
        ),
      },
      {
        path: ADMIN_SCREENS_ROOT,
        element: (
          <RequireAdmin>
            <Navigate to={ADMIN_SCREEN_PATHS.users} replace />
          </RequireAdmin>
        ),
      },
      { path: '*', element: <NotFound /> },
    ],
  },
]);

export function AppRouter() {
  return (
    <Suspense fallback={<StartUpLoading />}>
      <RouterProvider router={router} />
    </Suspense>
  );
}
