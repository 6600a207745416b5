import { useEffect, useState, useSyncExternalStore } from 'react';
import { createBrowserRouter, Navigate, Outlet, RouterProvider, useLocation } from 'react-router';
import { Loading } from '../shared/ui';
import { session } from './session';

/**
 * Routes. Only the sign-in screen and the frame are in the first load; every other screen is its own chunk, loaded
 * when opened (docs/worker-app.md lists the first-load budget). Signed-out visitors of any screen land on /login
 * and come back to it after signing in.
 */
const router = createBrowserRouter(
  [
    { path: '/login', lazy: () => import('./screens/SignIn').then((m) => ({ Component: m.SignIn })) },
    {
      path: '/',
      element: <RequireSession />,
      children: [
        {
          lazy: () => import('./components/Frame').then((m) => ({ Component: m.Frame })),
          children: [
            { index: true, element: <Navigate to="/tasks" replace /> },
            { path: 'tasks', lazy: () => import('./screens/Nearby').then((m) => ({ Component: m.Nearby })) },
            {
              path: 'tasks/:taskId',
              lazy: () => import('./screens/TaskPage').then((m) => ({ Component: m.TaskPage })),
            },
            { path: 'mine', lazy: () => import('./screens/MyTasks').then((m) => ({ Component: m.MyTasks })) },
            {
              path: 'mine/:assignmentId',
              lazy: () => import('./screens/Assignment').then((m) => ({ Component: m.Assignment })),
            },
            {
              path: 'offers/:assignmentId',
              lazy: () => import('./screens/OfferPage').then((m) => ({ Component: m.OfferPage })),
            },
            {
              path: 'earnings',
              lazy: () => import('./screens/Earnings').then((m) => ({ Component: m.Earnings })),
            },
            {
              path: 'profile',
              lazy: () => import('./screens/Profile').then((m) => ({ Component: m.Profile })),
            },
            { path: '*', element: <Navigate to="/tasks" replace /> },
          ],
        },
      ],
    },
  ],
  { basename: '/app' },
);

export function useSignedIn(): boolean {
  return useSyncExternalStore(session.subscribe, session.snapshot);
}

/** Waits for the stored refresh token to become a session (once per load), then shows the screen or /login. */
function RequireSession() {
  const signedIn = useSignedIn();
  const location = useLocation();
  const [restored, setRestored] = useState(session.signedIn);
  useEffect(() => {
    if (!restored) void session.restore().finally(() => setRestored(true));
  }, [restored]);
  if (!restored) return <Loading />;
  if (!signedIn) {
    return (
      <Navigate to="/login" replace state={session.endedByLogout ? null : { from: location.pathname }} />
    );
  }
  return <Outlet />;
}

export function App() {
  return <RouterProvider router={router} />;
}
