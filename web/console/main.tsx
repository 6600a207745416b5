import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../shared/base.css';
import { I18nProvider, LanguageSwitch, useI18n, type Catalog, type Locale } from '../shared/i18n';

/**
 * The agent console (/console, desktop-first, English by default with Chinese). This is the shell the console's
 * screens grow in: the shared API client, session, error words and live updates of ../shared are ready for them.
 */
const CATALOGS: Record<Locale, Catalog> = {
  en: { 'console.title': 'Legwork console', 'console.lead': 'For agents and operators.' },
  'zh-CN': { 'console.title': 'Legwork 控制台', 'console.lead': '面向代理方与运营人员。' },
};

function Shell() {
  const { t } = useI18n();
  return (
    <main style={{ maxWidth: 960, margin: '0 auto', padding: '1.5em' }}>
      <header className="row" style={{ justifyContent: 'space-between' }}>
        <h1>{t('console.title')}</h1>
        <LanguageSwitch />
      </header>
      <p className="muted">{t('console.lead')}</p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nProvider catalogs={CATALOGS} defaultLocale="en" storageKey="legwork.console.locale">
      <Shell />
    </I18nProvider>
  </StrictMode>,
);
