import { Suspense } from 'react';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { LoginScreen } from '../features/auth/login-screen';
import { DashboardScreen } from '../features/dashboard/dashboard-screen';
import { GenerateScreen } from '../features/generate/generate-screen';
import { InputScreen } from '../features/input/input-screen';
import { OutputScreen } from '../features/output/output-screen';
import { UpscaleScreen } from '../features/upscale/upscale-screen';
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
