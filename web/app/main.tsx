import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../shared/base.css';
import './app.css';
import { I18nProvider } from '../shared/i18n';
import { App } from './App';
import { CATALOGS } from './messages';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nProvider catalogs={CATALOGS} defaultLocale="zh-CN" storageKey="legwork.app.locale">
      <App />
    </I18nProvider>
  </StrictMode>,
);

// Installable and able to open offline (public/sw.js). Registered after load so it never slows the first paint.
if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/app/sw.js', { scope: '/app/' }).catch(() => {
      // No service worker (private mode, an old browser): the app works the same, only not offline.
    });
  });
}
