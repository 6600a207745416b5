import type { Catalog, Locale } from '../../shared/locale';
import { en } from './en';
import { zhCN } from './zh-CN';

export type { MessageKey } from './zh-CN';

/** The worker app's catalogues, one file per language, for the shared I18nProvider. */
export const CATALOGS: Record<Locale, Catalog> = { 'zh-CN': zhCN, en };
