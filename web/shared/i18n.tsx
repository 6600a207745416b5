import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ERROR_WORDS } from './error-words';
import { type Catalog, type Locale, LOCALES } from './locale';

export { type Catalog, type Locale, LOCALES } from './locale';
/**
 * Looks a key up in the current language. `K` is an app's own keys when it uses typedI18n (a key the app's catalogue
 * does not have is a type error); plain `string` for the shared components, whose words every app carries.
 */
export type Translate<K extends string = string> = (key: K, vars?: Record<string, string | number>) => string;

export interface I18nValue<K extends string = string> {
  locale: Locale;
  setLocale: (locale: Locale) => void;
  t: Translate<K>;
  /**
   * Whether a key has words in the current language (the error component falls back to the API's message); a key
   * built at run time (an event's name) can be passed to `t` after it.
   */
  has: (key: string) => key is K;
}

const I18nContext = createContext<I18nValue | null>(null);

/** `{name}` placeholders; a missing key shows itself, so a gap is visible rather than blank. */
function format(text: string, vars?: Record<string, string | number>): string {
  return vars
    ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m))
    : text;
}

/**
 * A small message catalogue per app and language (no library: the worker app's first load is counted in KB). Each
 * app passes its own catalogues and its default language (zh-CN for the worker app, en for the console); the
 * person's choice is remembered in localStorage under the app's key (a preference, not a credential) and sets
 * <html lang>, so screen readers pronounce the page in the right language.
 */
export function I18nProvider(props: {
  catalogs: Record<Locale, Catalog>;
  defaultLocale: Locale;
  storageKey: string;
  children: ReactNode;
}) {
  const { catalogs, defaultLocale, storageKey } = props;
  const [locale, setLocaleState] = useState<Locale>(() => {
    const saved = localStorage.getItem(storageKey);
    return LOCALES.includes(saved as Locale) ? (saved as Locale) : defaultLocale;
  });
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  const setLocale = useCallback(
    (next: Locale) => {
      localStorage.setItem(storageKey, next);
      setLocaleState(next);
    },
    [storageKey],
  );
  const value = useMemo<I18nValue>(() => {
    const catalog = { ...ERROR_WORDS[locale], ...catalogs[locale] };
    return {
      locale,
      setLocale,
      t: (key, vars) => format(catalog[key] ?? key, vars),
      has: (key): key is string => key in catalog,
    };
  }, [catalogs, locale, setLocale]);
  return <I18nContext.Provider value={value}>{props.children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}

/**
 * useI18n typed to an app's keys, the type of its first catalogue's keys: `export const useI18n =
 * typedI18n<keyof typeof en>()`. The other languages' catalogues are typed `Record<thoseKeys, string>`, so a key
 * missing from one of them is a type error too. Same provider, same catalogues at run time.
 */
export function typedI18n<K extends string>(): () => I18nValue<K> {
  // Only the types narrow: `t` takes fewer keys, and `has` vouches for a key the merged catalogue holds.
  return useI18n as unknown as () => I18nValue<K>;
}

/** A language switch: a labelled select, usable by keyboard and screen reader. */
export function LanguageSwitch() {
  const { locale, setLocale, t } = useI18n();
  return (
    <label className="lang-switch">
      <span>{t('common.language')}</span>
      <select value={locale} onChange={(e) => setLocale(e.target.value as Locale)}>
        <option value="zh-CN" lang="zh-CN">
          中文
        </option>
        <option value="en" lang="en">
          English
        </option>
      </select>
    </label>
  );
}

/** Money in cents as yuan, in the current language's format. */
export function formatCents(cents: number, locale: Locale): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'CNY' }).format(cents / 100);
}

export function formatDateTime(iso: string | null | undefined, locale: Locale): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
