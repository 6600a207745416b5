import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../shared/base.css';
import './console.css';
import { I18nProvider } from '../shared/i18n';
import { App } from './App';
import { CATALOGS } from './i18n';

/** The agent console (/console, desktop-first, English by default with Chinese; product-decisions §14). */
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nProvider catalogs={CATALOGS} defaultLocale="en" storageKey="legwork.console.locale">
      <App />
    </I18nProvider>
  </StrictMode>,
);
