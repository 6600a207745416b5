import {
  Component,
  isValidElement,
  lazy,
  startTransition,
  Suspense,
  useEffect,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import {
  BrowserRouter,
  matchRoutes,
  Navigate,
  Outlet,
  useLocation,
  useRoutes,
  type RouteObject,
} from 'react-router';
import { ErrorNotice, Loading } from '../shared/ui';
import { useSignedIn } from '../shared/session-hooks';
import { session } from './session';

/**
 * A screen in a chunk of its own, fetched the first time it is rendered (React.lazy), or before by `preload`. Only
 * what is rendered is fetched: a signed-out first open fetches the sign-in screen and never the frame (socket.io)
 * or the other screens (docs/worker-app.md, "First load").
 */
function screen<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  let loading: Promise<Record<K, ComponentType>> | undefined;
  const preload = () => (loading ??= load());
  return Object.assign(
    lazy(() => preload().then((m) => ({ default: m[name] }))),
    { preload },
  );
}

const SignIn = screen(() => import('./screens/SignIn'), 'SignIn');
const Frame = screen(() => import('./components/Frame'), 'Frame');
const Nearby = screen(() => import('./screens/Nearby'), 'Nearby');
const TaskPage = screen(() => import('./screens/TaskPage'), 'TaskPage');
const MyTasks = screen(() => import('./screens/MyTasks'), 'MyTasks');
const Assignment = screen(() => import('./screens/Assignment'), 'Assignment');
const OfferPage = screen(() => import('./screens/OfferPage'), 'OfferPage');
const Earnings = screen(() => import('./screens/Earnings'), 'Earnings');
const Profile = screen(() => import('./screens/Profile'), 'Profile');
const Notifications = screen(() => import('./screens/Notifications'), 'Notifications');

/**
 * Routes. Signed-out visitors of any screen land on /login and come back to it after signing in. `/` and unknown
 * paths go to /tasks before the session is checked, so the screen to preload is known while it is.
 */
const routes: RouteObject[] = [
  { path: '/login', element: <SignIn /> },
  { index: true, element: <Navigate to="/tasks" replace /> },
  {
    element: <RequireSession />,
    children: [
      {
        element: <Frame />,
        children: [
          { path: 'tasks', element: <Nearby /> },
          { path: 'tasks/:taskId', element: <TaskPage /> },
          { path: 'mine', element: <MyTasks /> },
          { path: 'mine/:assignmentId', element: <Assignment /> },
          { path: 'offers/:assignmentId', element: <OfferPage /> },
          { path: 'notices', element: <Notifications /> },
          { path: 'earnings', element: <Earnings /> },
          { path: 'profile', element: <Profile /> },
        ],
      },
    ],
  },
  { path: '*', element: <Navigate to="/tasks" replace /> },
];

// A stored session starts its refresh as soon as the app's script runs, not once React has rendered the route that
// waits for it: on a phone network the refresh is the longest step before a signed-in screen.
if (session.restorable) void session.restore();

/**
 * Waits for the stored refresh token to become a session (once per load), then shows the screen or /login. While
 * it waits, the chunks of the frame and the screen asked for are fetched beside the refresh rather than after it.
 */
function RequireSession() {
  const signedIn = useSignedIn(session);
  const location = useLocation();
  const [restored, setRestored] = useState(session.signedIn);
  // Preloads for the path the app opened at only: later paths are fetched by the routes that render them.
  useEffect(() => {
    if (restored) return;
    if (session.restorable) preloadScreens(location.pathname);
    // A transition, like the first render (main.tsx): the frame and the screen mount in slices.
    void session.restore().finally(() => startTransition(() => setRestored(true)));
  }, [restored]);
  if (!restored) return <Loading />;
  if (!signedIn) {
    return (
      <Navigate to="/login" replace state={session.endedByLogout ? null : { from: location.pathname }} />
    );
  }
  return <Outlet />;
}

/** Starts fetching the lazy screens (screen()) the routes render at this path. */
function preloadScreens(pathname: string): void {
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    if (isValidElement(route.element)) {
      void (route.element.type as { preload?: () => Promise<unknown> }).preload?.();
    }
  }
}

function AppRoutes() {
  return useRoutes(routes);
}

/**
 * A screen whose chunk did not arrive (offline, a dropped connection) says so, with a retry that loads the page
 * again, instead of leaving a blank page; so does any other error a screen throws while rendering.
 */
class ScreenError extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <main className="screen">
        <ErrorNotice error={this.state.error} onRetry={() => window.location.reload()} />
      </main>
    );
  }
}

export function App() {
  return (
    <BrowserRouter basename="/app">
      <ScreenError>
        <Suspense fallback={<Loading />}>
          <AppRoutes />
        </Suspense>
      </ScreenError>
    </BrowserRouter>
  );
}
