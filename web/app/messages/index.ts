import { typedI18n } from '../../shared/i18n';
import type { Catalog, Locale } from '../../shared/locale';
import { en } from './en';
import { type MessageKey, zhCN } from './zh-CN';

export type { MessageKey } from './zh-CN';

/** The worker app's catalogues, one file per language, for the shared I18nProvider (main.tsx). */
export const CATALOGS: Record<Locale, Catalog> = { 'zh-CN': zhCN, en };

/**
 * The worker app's `useI18n` (the shared provider's, typed by typedI18n): `t` takes only the app's own keys
 * (messages/zh-CN.ts), so a misspelt key or a `status.${s}` whose `s` has no words does not compile. The shared
 * words (errors, "Language") are read by the shared components. (Here rather than in a file of its own: the entry
 * holds it, so no screen's first load waits for one more small chunk.)
 */
export const useWords = typedI18n<MessageKey>();
