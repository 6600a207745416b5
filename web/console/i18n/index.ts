import { typedI18n, type Catalog, type Locale } from '../../shared/i18n';
import { en, type MessageKey } from './en';
import { zh } from './zh';

export type { MessageKey };

/** The console's catalogues, one file per language (en.ts defines the keys, zh.ts has each of them). */
export const CATALOGS: Record<Locale, Catalog> = { en, 'zh-CN': zh };

/** The shared useI18n with `t` typed to the console's keys: `t('nav.tsks')` does not compile. */
export const useI18n = typedI18n<MessageKey>();
