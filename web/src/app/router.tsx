import { Suspense } from 'react';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { LoginScreen } from '../features/auth';
import { DashboardScreen } from '../features/dashboard';
import { GenerateScreen } from '../features/generate';
import { InputScreen } from '../features/input';
import { OutputScreen } from '../features/output';
import { UpscaleScreen } from '../features/upscale';
import { Layout } from './layout';
import { NotFound } from './not-found';
import { RequireSession } from './require-session';
import { StartUpLoading } from './startup';

/**
 * Routes of SPEC §2 (checklist R1, R2): Login alone, every other screen inside the sidebar layout
 * and behind the session check.
 */
const router = createBrowserRouter([
  { path: '/', element: <LoginScreen /> },
  {
    element: (
      <RequireSession>
        <Layout />
      </RequireSession>
    ),
    children: [
      { path: '/dashboard', element: <DashboardScreen /> },
      { path: '/generate', element: <GenerateScreen /> },
      { path: '/output', element: <OutputScreen /> },
      { path: '/upscale', element: <UpscaleScreen /> },
      { path: '/input', element: <InputScreen /> },
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
