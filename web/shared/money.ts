import type { Locale } from './locale';

/**
 * Money in cents as yuan: "¥1,234.50" in both languages (English's default symbol for CNY is "CN¥", which reads
 * oddly to people who price in yuan every day). Amounts are integer cents everywhere in the API.
 */
export function formatCents(cents: number, locale: Locale): string {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'CNY',
    currencyDisplay: 'narrowSymbol',
  }).format(cents / 100);
}

/** Yuan as typed (at most two decimals) to cents; NaN when it is not an amount. */
export function yuanToCents(text: string): number {
  if (!/^\d+(\.\d{1,2})?$/.test(text.trim())) return Number.NaN;
  return Math.round(Number(text.trim()) * 100);
}
