import { useI18n } from '../../i18n/I18nContext.tsx';

interface PagerProps {
  page: number;
  pages: number;
  onPage: (page: number) => void;
}

/** First, previous, next and last page; the arrows turn round in right-to-left. */
export function Pager({ page, pages, onPage }: PagerProps) {
  const { t, formatNumber } = useI18n();
  const buttons: Array<{ key: string; label: string; icon: string; to: number; disabled: boolean }> = [
    { key: 'first', label: t('activity.pager.first'), icon: '«', to: 1, disabled: page <= 1 },
    { key: 'previous', label: t('activity.pager.previous'), icon: '‹', to: page - 1, disabled: page <= 1 },
    { key: 'next', label: t('activity.pager.next'), icon: '›', to: page + 1, disabled: page >= pages },
    { key: 'last', label: t('activity.pager.last'), icon: '»', to: pages, disabled: page >= pages },
  ];
  const button = (b: (typeof buttons)[number]) => (
    // aria-disabled rather than disabled: a button that focus is on must not drop it (Last page, then Next).
    <button
      key={b.key}
      type="button"
      className="activity__page-button"
      aria-label={b.label}
      title={b.label}
      aria-disabled={b.disabled || undefined}
      onClick={() => {
        if (!b.disabled) onPage(b.to);
      }}
    >
      <span aria-hidden="true" className="activity__page-icon">
        {b.icon}
      </span>
    </button>
  );
  return (
    <nav className="activity__pager" aria-label={t('activity.pager.label')}>
      {buttons.slice(0, 2).map(button)}
      <span className="activity__page-status">{t('activity.pager.status', { page: formatNumber(page), pages: formatNumber(pages) })}</span>
      {buttons.slice(2).map(button)}
    </nav>
  );
}
