import { useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { LocaleSettings } from '@rewards/contract/console-clients';
import { getLocaleSettings } from '../../api/client-settings.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { getPortalBundle } from '../../api/translations.ts';
import { t } from '../../i18n/t.ts';
import { ErrorMessage } from '../../ui/Form.tsx';
import './brand-preview.css';

export interface PreviewBranding {
  name: string;
  brandColor: string;
  /** A data: URL of the logo (what is saved, or the file just chosen). */
  logoSrc: string;
}

/** The two widths the issue asks the preview at: a phone and a desktop. */
const FRAMES = [
  { width: 375, height: 667, label: 'clientSettings.preview.phone' },
  { width: 1280, height: 720, label: 'clientSettings.preview.desktop' },
] as const;

/**
 * The portal's header and home as a participant sees them, drawn with the unsaved branding at 375
 * and 1280 px and scaled to fit (decision 065). A look-alike of apps/web's header, points, shop
 * tiles and code box: brand-preview.css takes the portal's own colour rules (global.css: the strong,
 * soft and contrast shades made from --brand), and container queries stand in for the portal's media
 * queries so each frame lays out at its own width. Its words are the portal's, in the client's
 * default language and direction, with the client's own wording and points label (decision 087).
 */
export function BrandPreview({ clientId, branding }: { clientId: string; branding: PreviewBranding }) {
  const words = usePortalWords(clientId);
  return (
    <div className="brand-preview" role="group" aria-label={t('clientSettings.preview.title')}>
      {words.error ? <ErrorMessage error={words.error} /> : null}
      {FRAMES.map((frame) => (
        <ScaledFrame key={frame.width} width={frame.width} height={frame.height} label={t(frame.label)}>
          {words.data ? <PortalLookAlike branding={branding} words={words.data} /> : <p className="muted">{t('common.loading')}</p>}
        </ScaledFrame>
      ))}
    </div>
  );
}

/** The portal's keys the look-alike shows. */
const KEYS = [
  'header.fullName',
  'header.points',
  'header.profile',
  'header.logout',
  'home.points.heading',
  'home.allSpent.historyLink',
  'shops.merchandise.title',
  'shops.merchandise.button',
  'shops.experiences.title',
  'shops.experiences.button',
  'shops.menu.travel',
  'shops.menu.button',
  'ots.title',
  'ots.code.placeholder',
  'ots.submit',
  'footer.rules',
  'footer.faqs',
  'footer.privacyPolicy',
] as const;
type PortalKey = (typeof KEYS)[number];

/** A participant's balance and name in the preview: sample data, not words. */
const SAMPLE = { balance: 12_500, firstName: 'Jane', lastName: 'Doe' };
/** The portal's own last resort for a key no bundle of the locale has (apps/web: the shipped English). */
const FALLBACK_LOCALE = 'en-US';

interface PortalWords {
  locale: string;
  dir: 'ltr' | 'rtl';
  /** The language's own name, as the portal's language menu shows it. */
  languageName: string;
  text: (key: PortalKey, params?: Record<string, string>) => string;
  /** The client's points label for an amount (the plural form of the locale; every form when no amount). */
  mediaLabel: (count?: number) => string;
  formatNumber: (n: number) => string;
}

/** The client's default locale and points label, then its bundle as participants read it (English where it has no text, as the portal does). */
function usePortalWords(clientId: string): { data?: PortalWords; error: unknown } {
  const settings = useQuery({ queryKey: queryKeys.settings.locales(clientId), queryFn: () => getLocaleSettings(clientId) });
  const locale = settings.data?.defaultLocale;
  const bundle = useQuery({
    queryKey: queryKeys.translations.bundle(clientId, locale ?? ''),
    queryFn: () => getPortalBundle(clientId, locale!),
    enabled: locale !== undefined,
  });
  const incomplete = bundle.data !== undefined && KEYS.some((key) => bundle.data[key] === undefined);
  const fallback = useQuery({
    queryKey: queryKeys.translations.bundle(clientId, FALLBACK_LOCALE),
    queryFn: () => getPortalBundle(clientId, FALLBACK_LOCALE),
    enabled: incomplete && locale !== FALLBACK_LOCALE,
  });
  const error = settings.error ?? bundle.error ?? fallback.error;
  if (!settings.data || !bundle.data || (incomplete && locale !== FALLBACK_LOCALE && !fallback.data)) return { error };
  return { data: portalWords(settings.data, { ...fallback.data, ...bundle.data }), error };
}

function portalWords(settings: LocaleSettings, texts: Record<string, string>): PortalWords {
  const locale = settings.defaultLocale;
  const setting = settings.locales.find((l) => l.code === locale);
  const label =
    settings.mediaLabels.length === 1
      ? settings.mediaLabels[0]
      : (settings.mediaLabels.find((l) => l.locale === locale) ?? settings.mediaLabels.find((l) => l.locale === FALLBACK_LOCALE));
  const numbers = safely(() => new Intl.NumberFormat(locale), new Intl.NumberFormat(FALLBACK_LOCALE));
  const plurals = safely(() => new Intl.PluralRules(locale), new Intl.PluralRules(FALLBACK_LOCALE));
  return {
    locale,
    dir: setting?.dir ?? 'ltr',
    languageName: setting?.name ?? locale,
    text: (key, params = {}) =>
      (texts[key] ?? key).replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? params[name]! : whole)),
    mediaLabel: (count) =>
      label ? ((count === undefined ? undefined : label.forms[plurals.select(count)]) ?? label.forms.other ?? '') : '',
    formatNumber: (n) => numbers.format(n),
  };
}

/** A client's locale tag Intl does not know must not break the preview (the portal falls back the same way). */
function safely<T>(make: () => T, fallback: T): T {
  try {
    return make();
  } catch {
    return fallback;
  }
}

function ScaledFrame({ width, height, label, children }: { width: number; height: number; label: string; children: ReactNode }) {
  const outer = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(0.3);
  useLayoutEffect(() => {
    const element = outer.current;
    if (!element) return undefined;
    const measure = () => setScale(Math.min(1, element.clientWidth / width));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [width]);
  return (
    <figure className={`brand-preview__frame brand-preview__frame--${width}`}>
      <figcaption>{label}</figcaption>
      <div ref={outer} className="brand-preview__viewport" style={{ height: height * scale }}>
        <div className="brand-preview__screen" style={{ width, height, transform: `scale(${scale})` }} data-width={width}>
          {children}
        </div>
      </div>
    </figure>
  );
}

function PortalLookAlike({ branding, words }: { branding: PreviewBranding; words: PortalWords }) {
  const { text, mediaLabel } = words;
  const balance = text('header.points', { balance: words.formatNumber(SAMPLE.balance), mediaLabel: mediaLabel(SAMPLE.balance) });
  const tiles = [
    { name: text('shops.merchandise.title'), button: text('shops.merchandise.button') },
    { name: text('shops.experiences.title'), button: text('shops.experiences.button') },
    { name: text('shops.menu.travel'), button: text('shops.menu.button') },
  ];
  return (
    // Decorative copy of the portal: hidden from the accessibility tree, the form says what changes.
    <div
      className="pv"
      style={{ '--brand': branding.brandColor } as CSSProperties}
      aria-hidden="true"
      data-testid="portal-preview"
      lang={words.locale}
      dir={words.dir}
    >
      {/* The browser's tab: where the portal shows the program's name (its header shows the logo only). */}
      <div className="pv-tab">{branding.name}</div>
      <header className="pv-header">
        <div className="pv-header__bar">
          <img className="pv-header__logo" src={branding.logoSrc} alt="" />
          <span className="pv-header__lang">{words.languageName}</span>
        </div>
        <nav className="pv-userbar">
          <span>{text('header.fullName', { firstName: SAMPLE.firstName, lastName: SAMPLE.lastName })}</span>
          <span className="pv-userbar__points">{balance}</span>
          <span className="pv-userbar__link">{text('header.profile')}</span>
          <span className="pv-userbar__link">{text('header.logout')}</span>
        </nav>
      </header>
      <main className="pv-home">
        <section className="pv-points">
          <p className="pv-points__label">{text('home.points.heading', { mediaLabel: mediaLabel() })}</p>
          <p className="pv-points__value">{balance}</p>
          <span className="pv-link">{text('home.allSpent.historyLink')}</span>
        </section>
        <section className="pv-tiles">
          {tiles.map((tile) => (
            <div key={tile.name} className="pv-tile">
              <div className="pv-tile__image" />
              <p className="pv-tile__name">{tile.name}</p>
              <span className="pv-button">{tile.button}</span>
            </div>
          ))}
        </section>
        <section className="pv-ots">
          <p className="pv-ots__title">{text('ots.title')}</p>
          <div className="pv-ots__row">
            <span className="pv-input">{text('ots.code.placeholder')}</span>
            <span className="pv-button">{text('ots.submit')}</span>
          </div>
        </section>
      </main>
      <footer className="pv-footer">
        <span className="pv-link">{text('footer.rules')}</span>
        <span className="pv-link">{text('footer.faqs')}</span>
        <span className="pv-link">{text('footer.privacyPolicy')}</span>
      </footer>
    </div>
  );
}
