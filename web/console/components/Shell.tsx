import { createContext, useContext, type ReactNode } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { unwrap, type Schemas } from '../../shared/api';
import type { Session } from '../../shared/auth';
import { LanguageSwitch } from '../../shared/i18n';
import { useI18n, type MessageKey } from '../i18n';
import { useLive } from '../../shared/live';
import { ErrorNotice, Loading } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { liveEvents, type LiveDetail } from '../hooks';
import { adminApi, adminSession, agentApi, agentSession } from '../session';
import { useSignedIn } from '../../shared/session-hooks';

type Profile = Schemas['AgentProfileResponse'];

interface AgentContextValue {
  profile: Profile;
  /** Sandbox accounts (lw_test_ keys) get the sandbox page and sandbox top-ups. */
  sandbox: boolean;
  reloadProfile: () => Promise<void>;
}

const AgentContext = createContext<AgentContextValue | null>(null);

export function useAgent(): AgentContextValue {
  const value = useContext(AgentContext);
  if (!value) throw new Error('useAgent outside AgentShell');
  return value;
}

function Frame(props: {
  nav: [string, MessageKey][];
  who: string;
  badge?: ReactNode;
  session: Session;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const navigate = useNavigate();
  return (
    <div className="console">
      <a className="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <aside className="sidebar">
        <p className="brand">{t('console.title')}</p>
        <nav aria-label={t('nav.label')}>
          <ul>
            {props.nav.map(([to, key]) => (
              <li key={to}>
                <NavLink to={to} end={to === '/' || to === '/tasks'}>
                  {t(key)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <div className="content">
        <header className="topbar">
          <span className="who">
            {props.who} {props.badge}
          </span>
          <span className="row">
            <LanguageSwitch />
            <button
              type="button"
              className="secondary"
              onClick={() => {
                // Forgets the tokens at once; the revocation on the server follows in the background.
                void props.session.logOut();
                void navigate('/login', {
                  replace: true,
                  state: { operator: props.session === adminSession },
                });
              }}
            >
              {t('auth.logout')}
            </button>
          </span>
        </header>
        <main id="main" tabIndex={-1}>
          {props.children}
        </main>
      </div>
    </div>
  );
}

/**
 * The agent's frame: navigation, the account's identity and mode, and the live connection (socket.io, the agent's
 * room). Every live event is re-dispatched on liveEvents so the screen on view reloads what it shows.
 */
export function AgentShell() {
  const { t } = useI18n();
  const signedIn = useSignedIn(agentSession);
  const profile = useAsync(() => unwrap(agentApi.GET('/v1/agent/me')), []);
  useLive(agentSession, signedIn, (name, payload) => {
    liveEvents.dispatchEvent(
      new CustomEvent<LiveDetail>('event', { detail: { name, payload: payload as LiveDetail['payload'] } }),
    );
  });
  if (!profile.data) {
    return profile.error ? (
      <main className="narrow">
        <ErrorNotice error={profile.error} onRetry={() => void profile.reload()} />
      </main>
    ) : (
      <Loading />
    );
  }
  const sandbox = profile.data.api_key_prefix.startsWith('lw_test_');
  const nav: [string, MessageKey][] = [
    ['/', 'nav.dashboard'],
    ['/tasks', 'nav.tasks'],
    ['/tasks/new', 'nav.new_task'],
    ['/money', 'nav.money'],
    ['/keys', 'nav.keys'],
    ['/apps', 'nav.apps'],
    ['/webhooks', 'nav.webhooks'],
    ['/events', 'nav.events'],
  ];
  if (sandbox) nav.push(['/sandbox', 'nav.sandbox']);
  return (
    <AgentContext.Provider value={{ profile: profile.data, sandbox, reloadProfile: profile.reload }}>
      <Frame
        nav={nav}
        session={agentSession}
        who={profile.data.organization_name || profile.data.email}
        badge={
          <span className={`badge ${sandbox ? 'warn' : 'ok'}`}>
            {t(sandbox ? 'mode.sandbox' : 'mode.live')}
          </span>
        }
      >
        <Outlet />
      </Frame>
    </AgentContext.Provider>
  );
}

/**
 * The operator's frame (product-decisions §8, §16, §18, §19): agents, withdrawals, flagged proof and review requests,
 * disputes, workers' reports of tasks, provider health, the ledger check, the quarterly reports, the audit log and
 * the account's security; the operator is named by their email.
 */
export function OperatorShell() {
  const { t } = useI18n();
  const me = useAsync(() => unwrap(adminApi.GET('/v1/admin/me')), []);
  const nav: [string, MessageKey][] = [
    ['/ops/withdrawals', 'nav.ops_withdrawals'],
    ['/ops/proof-reviews', 'nav.ops_proof_reviews'],
    ['/ops/worker-reviews', 'nav.ops_worker_reviews'],
    ['/ops/disputes', 'nav.ops_disputes'],
    ['/ops/task-reports', 'nav.ops_task_reports'],
    ['/ops/agents', 'nav.ops_agents'],
    ['/ops/health', 'nav.ops_health'],
    ['/ops/ledger', 'nav.ops_ledger'],
    ['/ops/reports', 'nav.ops_reports'],
    ['/ops/audit', 'nav.ops_audit'],
    ['/ops/security', 'nav.ops_security'],
  ];
  return (
    <Frame
      nav={nav}
      session={adminSession}
      who={me.data?.email ?? t('ops.who')}
      badge={<span className="badge">{t('ops.badge')}</span>}
    >
      <Outlet />
    </Frame>
  );
}
