import { useEffect, useState, type ReactNode } from 'react';
import { I18nProvider } from '../i18n/I18nContext.tsx';
import { chooseMediaLabel } from '../i18n/mediaLabel.ts';
import { readPseudoLocale } from '../i18n/pseudo.ts';
import { ServicesProvider, useAppState, type AppServices } from '../state/StoreContext.tsx';

const noLabels: never[] = [];

/** Feeds the i18n context from the store: the current bundle, locale and media label. */
function StoreI18n({ children }: { children: ReactNode }) {
  const locale = useAppState((s) => s.locale);
  const properties = useAppState((s) => s.bundles[s.locale.code]);
  const labels = useAppState((s) => s.client?.clientBranding.mediaLabels ?? noLabels);
  const clientLocale = useAppState((s) => s.client?.locale.code);
  const brandColor = useAppState((s) => s.client?.clientBranding.brandColor);
  const label = chooseMediaLabel(labels, locale.code, clientLocale);
  // Read once per page load: ?pseudo=1 shows every text as [[key]] (development and screenshots).
  const [pseudo] = useState(() => readPseudoLocale());

  useEffect(() => {
    document.documentElement.lang = locale.code;
    document.documentElement.dir = locale.dir;
  }, [locale]);

  useEffect(() => {
    // The client's colour drives every branded surface through one custom property.
    if (brandColor && CSS.supports?.('color', brandColor)) document.documentElement.style.setProperty('--brand', brandColor);
  }, [brandColor]);

  return (
    <I18nProvider locale={locale} properties={properties} label={label} pseudo={pseudo}>
      {children}
    </I18nProvider>
  );
}

export function AppProviders({ services, children }: { services: AppServices; children: ReactNode }) {
  return (
    <ServicesProvider services={services}>
      <StoreI18n>{children}</StoreI18n>
    </ServicesProvider>
  );
}
