import { calendarDay, localDayFromToday, useExpirySchedule } from '../../api/expiry-schedule.ts';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { paths } from '../../routing/paths.ts';
import { AppLink } from '../../ui/AppLink.tsx';
import { pluralOf } from './plural.ts';

/** How far ahead home looks: points expiring later are in the history's schedule only. */
export const HOME_EXPIRY_DAYS = 90;

/**
 * Under the balance (issue 19, decision 061): the soonest points to expire within 90 days, with
 * their amount and day, "1,250 Acme Points expire on January 31, 2027"; and, when more days
 * follow, a link to the history's schedule, so that the soonest date never stands for all of
 * them. Nothing while loading, on an error, or when nothing expires soon.
 */
export function ExpiringLine({ balance }: { balance: number }) {
  const { t, has, formatNumber, formatDate, mediaLabel, locale } = useI18n();
  const schedule = useExpirySchedule(true, balance);
  if (schedule.status !== 'ready') return null;
  const [soonest] = schedule.expiries;
  if (!soonest || soonest.date > localDayFromToday(HOME_EXPIRY_DAYS)) return null;
  // The verb agrees with the amount where the language needs it ("1 Acme Point expires").
  const key = pluralOf(locale.code, soonest.points) === 'one' && has('home.expiring.one') ? 'home.expiring.one' : 'home.expiring';
  const date = calendarDay(soonest.date);
  return (
    <p className="points__expiring">
      <span>
        {t(key, {
          points: formatNumber(soonest.points),
          mediaLabel: mediaLabel(soonest.points),
          date: formatDate(date, { dateStyle: 'long', timeZone: 'UTC' }),
        })}
      </span>
      {schedule.expiries.length > 1 ? (
        <>
          {' '}
          <AppLink to={paths.activityHistory} className="points__expiring-link">
            {t('home.expiring.scheduleLink')}
          </AppLink>
        </>
      ) : null}
    </p>
  );
}
