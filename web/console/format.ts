import type { Locale } from '../shared/i18n';

/**
 * Money in cents as yuan for the console: "¥1,234.50" in both languages (English's default symbol for CNY is
 * "CN¥", which reads oddly to people who price in yuan every day).
 */
export function formatCents(cents: number, locale: Locale): string {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'CNY',
    currencyDisplay: 'narrowSymbol',
  }).format(cents / 100);
}
