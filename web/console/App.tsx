import { useEffect, useState } from 'react';
import { createBrowserRouter, Navigate, Outlet, RouterProvider, useLocation } from 'react-router';
import type { Session } from '../shared/auth';
import { Loading } from '../shared/ui';
import { AgentShell, OperatorShell } from './components/Shell';
import { Dashboard } from './screens/Dashboard';
import { SpendApproval } from './screens/SpendApproval';
import { ApiKeys } from './screens/ApiKeys';
import { Events } from './screens/Events';
import { Login } from './screens/Login';
import { Money } from './screens/Money';
import { OAuthConsent } from './screens/OAuthConsent';
import { OAuthGrants } from './screens/OAuthGrants';
import { OpsAgents } from './screens/OpsAgents';
import { OpsHealth, OpsLedger } from './screens/OpsChecks';
import { OpsWithdrawals } from './screens/OpsWithdrawals';
import { OpsAuditLog } from './screens/OpsAuditLog';
import { OpsProofReview, OpsProofReviews, OpsWorkerReviews } from './screens/OpsProofReviews';
import { OpsSecurity } from './screens/OpsSecurity';
import { OpsDisputes } from './screens/OpsDisputes';
import { OpsReports } from './screens/OpsReports';
import { OpsTaskReport, OpsTaskReports } from './screens/OpsTaskReports';
import { Sandbox } from './screens/Sandbox';
import { TaskCreate } from './screens/TaskCreate';
import { TaskDetail } from './screens/TaskDetail';
import { Tasks } from './screens/Tasks';
import { Webhooks } from './screens/Webhooks';
import { adminSession, agentSession } from './session';
import { useSignedIn } from '../shared/session-hooks';

/**
 * Routes under /console: the sign-in screen, the agent's pages, and the operator's pages under /console/ops. Each
 * part waits for its stored refresh token to become a session and sends signed-out visitors to the sign-in screen,
 * which brings them back afterwards. The console is for desktops: one bundle, no lazy chunks (the size budget is
 * the worker app's).
 */
const router = createBrowserRouter(
  [
    { path: '/login', element: <Login /> },
    {
      path: '/ops',
      element: <RequireSession session={adminSession} />,
      children: [
        {
          element: <OperatorShell />,
          children: [
            { index: true, element: <Navigate to="withdrawals" replace /> },
            { path: 'agents', element: <OpsAgents /> },
            { path: 'withdrawals', element: <OpsWithdrawals /> },
            { path: 'proof-reviews', element: <OpsProofReviews /> },
            { path: 'proof-reviews/:reviewId', element: <OpsProofReview /> },
            { path: 'worker-reviews', element: <OpsWorkerReviews /> },
            { path: 'disputes', element: <OpsDisputes /> },
            { path: 'task-reports', element: <OpsTaskReports /> },
            { path: 'task-reports/:reportId', element: <OpsTaskReport /> },
            { path: 'reports', element: <OpsReports /> },
            { path: 'health', element: <OpsHealth /> },
            { path: 'ledger', element: <OpsLedger /> },
            { path: 'audit', element: <OpsAuditLog /> },
            { path: 'security', element: <OpsSecurity /> },
          ],
        },
      ],
    },
    {
      path: '/',
      element: <RequireSession session={agentSession} />,
      children: [
        // The OAuth consent page stands alone: the person came from an app, not from the console's navigation.
        { path: 'oauth/consent', element: <OAuthConsent /> },
        {
          element: <AgentShell />,
          children: [
            { index: true, element: <Dashboard /> },
            { path: 'money', element: <Money /> },
            { path: 'tasks', element: <Tasks /> },
            { path: 'tasks/new', element: <TaskCreate /> },
            { path: 'tasks/:taskId', element: <TaskDetail /> },
            { path: 'keys', element: <ApiKeys /> },
            { path: 'apps', element: <OAuthGrants /> },
            { path: 'approvals/:approvalId', element: <SpendApproval /> },
            { path: 'webhooks', element: <Webhooks /> },
            { path: 'events', element: <Events /> },
            { path: 'sandbox', element: <Sandbox /> },
            { path: '*', element: <Navigate to="/" replace /> },
          ],
        },
      ],
    },
  ],
  { basename: '/console' },
);

function RequireSession({ session }: { session: Session }) {
  const signedIn = useSignedIn(session);
  const location = useLocation();
  const [restored, setRestored] = useState(session.signedIn);
  useEffect(() => {
    if (!restored) void session.restore().finally(() => setRestored(true));
  }, [restored, session]);
  if (!restored) return <Loading />;
  if (!signedIn) {
    const operator = session === adminSession;
    // The query string comes back too: the OAuth consent page's `request` is in it.
    return <Navigate to="/login" replace state={{ from: location.pathname + location.search, operator }} />;
  }
  return <Outlet />;
}

export function App() {
  return <RouterProvider router={router} />;
}
