/**
 * The apps' languages and the shape of a message catalogue, apart from the provider (i18n.tsx) so that the
 * catalogues, the shared error words among them, can be typed without importing the component that reads them.
 */
export type Locale = 'zh-CN' | 'en';
export const LOCALES: readonly Locale[] = ['zh-CN', 'en'];
export type Catalog = Record<string, string>;
