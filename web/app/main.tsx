import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../shared/base.css';
import './app.css';
import { I18nProvider } from '../shared/i18n';
import { FoldErrorDetails } from '../shared/ui';
import { App } from './App';
import { CATALOGS } from './messages';

// The first render as a transition: React renders it in slices of a few milliseconds, so on a slow phone the main
// thread is never blocked for the whole of it (Lighthouse's total blocking time, issue 27). Until it commits, the
// loading line of index.html stays on the screen.
const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <I18nProvider catalogs={CATALOGS} defaultLocale="zh-CN" storageKey="legwork.app.locale">
        {/* A worker sees an error's words; its code and request id wait under "Details" for support. */}
        <FoldErrorDetails.Provider value={true}>
          <App />
        </FoldErrorDetails.Provider>
      </I18nProvider>
    </StrictMode>,
  ),
);

// Installable and able to open offline (public/sw.js). Registered after load so it never slows the first paint.
if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/app/sw.js', { scope: '/app/' }).catch(() => {
      // No service worker (private mode, an old browser): the app works the same, only not offline.
    });
  });
}
