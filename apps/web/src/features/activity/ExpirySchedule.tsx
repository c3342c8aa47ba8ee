import { calendarDay, useExpirySchedule } from '../../api/expiry-schedule.ts';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState } from '../../state/StoreContext.tsx';

/**
 * "Points expiring" (issue 19, decision 061): every day in the coming twelve months on which some
 * of the balance expires, with its amount, soonest first. A list rather than a second table: two
 * columns read as pairs on a phone, and the statement stays the page's one table. Hidden when
 * nothing expires (a program without expiry shows nothing new).
 */
export function ExpirySchedule() {
  const { t, formatNumber, formatDate, mediaLabel } = useI18n();
  const balance = useAppState((s) => s.user?.accountBalance);
  const schedule = useExpirySchedule(true, balance);
  if (schedule.status !== 'ready' || schedule.expiries.length === 0) return null;
  return (
    <section className="expiring" id="points-expiring" aria-labelledby="points-expiring-heading">
      <h2 id="points-expiring-heading" className="expiring__heading">
        {t('activity.expiring.heading', { mediaLabel: mediaLabel() })}
      </h2>
      <p className="expiring__note">{t('activity.expiring.note')}</p>
      <ul className="expiring__list" aria-label={t('activity.expiring.caption', { mediaLabel: mediaLabel() })}>
        {schedule.expiries.map((expiry) => (
          <li key={expiry.date} className="expiring__item">
            <span className="expiring__date">
              <span className="ui-visually-hidden">{t('activity.expiring.date')} </span>
              <time dateTime={expiry.date}>{formatDate(calendarDay(expiry.date), { dateStyle: 'long', timeZone: 'UTC' })}</time>
            </span>
            <span className="expiring__points">
              {t('activity.expiring.points', { points: formatNumber(expiry.points), mediaLabel: mediaLabel(expiry.points) })}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
