const numberFormats = new Map<string, Intl.NumberFormat>();

/** Whole points formatted for the locale: 12,500 in en-US, 12 500 in fr-FR, ١٢٬٥٠٠ in ar. */
export function formatNumber(locale: string, value: number): string {
  let format = numberFormats.get(locale);
  if (!format) {
    try {
      format = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    } catch {
      format = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
    }
    numberFormats.set(locale, format);
  }
  return format.format(value);
}

export function formatDate(locale: string, value: Date | string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  try {
    return new Intl.DateTimeFormat(locale, options).format(date);
  } catch {
    return new Intl.DateTimeFormat(undefined, options).format(date);
  }
}
