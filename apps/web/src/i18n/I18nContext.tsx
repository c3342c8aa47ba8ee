import { createContext, Fragment, useContext, useMemo, type ReactNode } from 'react';
import type { Locale, MediaLabel } from '@rewards/contract';
import { splitPlaceholders, translate, type Properties, type Values } from './translate.ts';
import { mediaLabelText } from './mediaLabel.ts';
import { pseudoTranslate } from './pseudo.ts';
import { formatDate, formatNumber } from './format.ts';

export interface I18n {
  locale: Locale;
  t: (key: string, values?: Values) => string;
  /** True when the bundle has the key: lets a screen pick a more specific text when there is one. */
  has: (key: string) => boolean;
  formatNumber: (value: number) => string;
  formatDate: (value: Date | string, options?: Intl.DateTimeFormatOptions) => string;
  /** The media label for an amount (plural form), or its cmText when no amount is given. */
  mediaLabel: (count?: number) => string;
}

interface ProviderProps {
  locale: Locale;
  properties: Properties | undefined;
  label: MediaLabel | undefined;
  /** The pseudo-locale: every text as [[key]] (i18n/pseudo.ts). */
  pseudo?: boolean;
  children: ReactNode;
}

const I18nContext = createContext<I18n | null>(null);

function createI18n(locale: Locale, properties: Properties | undefined, label: MediaLabel | undefined, pseudo = false): I18n {
  return {
    locale,
    t: pseudo ? (key, values) => pseudoTranslate(properties, key, values) : (key, values) => translate(properties, key, values),
    has: (key) => properties !== undefined && Object.hasOwn(properties, key),
    formatNumber: (value) => formatNumber(locale.code, value),
    formatDate: (value, options) => formatDate(locale.code, value, options),
    mediaLabel: (count) => mediaLabelText(label, locale.code, count),
  };
}

export function I18nProvider({ locale, properties, label, pseudo = false, children }: ProviderProps) {
  const value = useMemo(() => createI18n(locale, properties, label, pseudo), [locale, properties, label, pseudo]);
  return <I18nContext value={value}>{children}</I18nContext>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n needs an I18nProvider above it');
  return value;
}

/**
 * A translated sentence whose placeholders may be elements, e.g. a link around the balance:
 * <Trans k="home.welcome" values={{ balance: <Link …/> }} />.
 */
export function Trans({ k, values }: { k: string; values: Readonly<Record<string, ReactNode>> }) {
  const { t } = useI18n();
  const text = t(k);
  return (
    <>
      {splitPlaceholders(text, values).map((part, index) => (
        <Fragment key={index}>{part}</Fragment>
      ))}
    </>
  );
}
