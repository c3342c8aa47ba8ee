import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState } from '../../state/StoreContext.tsx';
import { errorText, toServerError } from '../../state/errors.ts';
import { ReadStatus } from '../../ui/ReadStatus.tsx';
import type { ContentState } from './useContent.ts';

/** lang and dir for text served in another language than the page's (a fallback), else none. */
export function useForeignLanguage(locale: string): { lang?: string; dir?: 'ltr' | 'rtl' } {
  const current = useAppState((s) => s.locale.code);
  const localeList = useAppState((s) => s.client?.localeList);
  if (locale === current) return {};
  const dir = localeList?.find((l) => l.code === locale)?.dir;
  return dir ? { lang: locale, dir } : { lang: locale };
}

/** Says once per page that the text is shown in another language than the interface's. */
export function FallbackNotice({ locale }: { locale: string }) {
  const { t } = useI18n();
  const current = useAppState((s) => s.locale.code);
  return locale === current ? null : <p className="content__fallback">{t('content.fallbackNotice')}</p>;
}

/**
 * HTML the server rendered from the client's Markdown. Inserting it as HTML is safe ONLY because
 * the server renders with markdown-it `html: false` (raw HTML comes out as text) and its link
 * validation (no javascript:, vbscript:, file: or data: links) — decision 011. The CSP forbids
 * inline script as a second line of defence. Never pass anything else to this component.
 */
export function ServerHtml({ html, locale }: { html: string; locale: string }) {
  const language = useForeignLanguage(locale);
  const onClick = useInAppLinks();
  return (
    <div
      className="md"
      {...language}
      onClick={onClick}
      // Server-rendered with html:false (see above): the one place the portal inserts HTML.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

/** A plain click on a link to a portal page (`/faqs`) moves within the app instead of reloading it. */
export function useInAppLinks() {
  const navigate = useNavigate();
  return (event: MouseEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element).closest('a');
    const href = link?.getAttribute('href') ?? '';
    if (!link || link.target || !href.startsWith('/') || href.startsWith('//')) return;
    event.preventDefault();
    void navigate(href);
  };
}

/** Loading, failed and not-yet-published states shared by the content pages. */
export function ContentStatus({ state, onRetry }: { state: ContentState; onRetry: () => void }) {
  const { t, mediaLabel } = useI18n();
  if (state.status === 'loading') return <ReadStatus status="loading" />;
  if (state.status === 'missing') return <p className="content__muted">{t('content.error.notFound')}</p>;
  if (state.status === 'failed') {
    return <ReadStatus status="failed" message={errorText(toServerError(state.error), t, mediaLabel())} onRetry={onRetry} />;
  }
  return null;
}
