import type { UserData } from '@rewards/contract';
import { calendarDay } from '../../api/expiry-schedule.ts';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState } from '../../state/StoreContext.tsx';

type PendingPoints = UserData['pendingPoints'];

const NOTHING: PendingPoints = { points: 0, releases: [] };

/**
 * "Points pending" at the top of the history (issue 32 §3): each day on which earned points become
 * spendable, with their amount, soonest first, and what comes after the days the user data lists
 * ("Later"). Apart from the statement: pending points are no entry yet, not in its running balance,
 * and become an ordinary entry of the history on their day. From the user data the portal already
 * has (no request of its own); hidden when nothing is pending.
 */
export function PendingReleases() {
  const { t, formatNumber, formatDate, mediaLabel } = useI18n();
  // A user kept in the session's storage by a portal from before pending points has none.
  const pending = useAppState((s) => (s.user?.pendingPoints as PendingPoints | undefined) ?? NOTHING);
  if (pending.points <= 0) return null;
  const listed = pending.releases.reduce((sum, release) => sum + release.points, 0);
  const later = pending.points - listed;
  const amount = (points: number) => t('activity.pending.points', { points: formatNumber(points), mediaLabel: mediaLabel(points) });
  return (
    <section className="pending" id="points-pending" aria-labelledby="points-pending-heading">
      <h2 id="points-pending-heading" className="pending__heading">
        {t('activity.pending.heading', { mediaLabel: mediaLabel() })}
      </h2>
      <p className="pending__note">{t('activity.pending.note')}</p>
      <ul className="pending__list" aria-label={t('activity.pending.caption', { mediaLabel: mediaLabel() })}>
        {pending.releases.map((release) => (
          <li key={release.availableOn} className="pending__item">
            <span className="pending__date">
              <span className="ui-visually-hidden">{t('activity.pending.date')} </span>
              {/* A calendar day of the client: formatted from its UTC midnight, never a day off. */}
              <time dateTime={release.availableOn}>
                {formatDate(calendarDay(release.availableOn), { dateStyle: 'long', timeZone: 'UTC' })}
              </time>
            </span>
            <span className="pending__points">{amount(release.points)}</span>
          </li>
        ))}
        {later > 0 ? (
          <li className="pending__item">
            <span className="pending__date">{t('activity.pending.later')}</span>
            <span className="pending__points">{amount(later)}</span>
          </li>
        ) : null}
      </ul>
    </section>
  );
}
