import type { UserData } from '@rewards/contract';
import { calendarDay } from '../../api/expiry-schedule.ts';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { paths } from '../../routing/paths.ts';
import { AppLink } from '../../ui/AppLink.tsx';
import { pluralOf } from './plural.ts';

type PendingPoints = UserData['pendingPoints'];

/**
 * What is pending in the user data; nothing for a user kept in the session's storage by a
 * portal from before pending points (issue 32 §3), until the next sign-in or reload reads it again.
 */
export function pendingOf(user: UserData): PendingPoints {
  const pending = user.pendingPoints as PendingPoints | undefined;
  return pending ?? { points: 0, releases: [] };
}

/**
 * Under the balance (issue 32 §3): points earned and not spendable yet, with the day they become
 * available, "250 Acme Points pending, available on January 14, 2027". When they come on several
 * days: the total and what comes first, "250 Acme Points pending, 100 of them available on …", and
 * a link to the history, which lists every day. The data comes with the user data (no request of
 * its own); nothing when nothing is pending.
 */
export function PendingLine({ pending }: { pending: PendingPoints }) {
  const { t, has, formatNumber, formatDate, mediaLabel, locale } = useI18n();
  if (pending.points <= 0) return null;
  const [first] = pending.releases;
  // `availableOn` is a calendar day of the client: formatted from its UTC midnight, never a day off.
  const date = first ? formatDate(calendarDay(first.availableOn), { dateStyle: 'long', timeZone: 'UTC' }) : '';
  const values = { points: formatNumber(pending.points), mediaLabel: mediaLabel(pending.points), date };
  let text: string;
  if (!first) {
    text = t('home.pending.undated', values);
  } else if (first.points >= pending.points) {
    // The adjective agrees with the amount where the language needs it ("1 Point Acme … disponible").
    const one = pluralOf(locale.code, pending.points) === 'one' && has('home.pending.one');
    text = t(one ? 'home.pending.one' : 'home.pending', values);
  } else {
    const one = pluralOf(locale.code, first.points) === 'one' && has('home.pending.several.one');
    text = t(one ? 'home.pending.several.one' : 'home.pending.several', {
      ...values,
      first: formatNumber(first.points),
      firstLabel: mediaLabel(first.points),
    });
  }
  const more = pending.releases.length > 1 || (first !== undefined && first.points < pending.points);
  return (
    <p className="points__pending">
      <span>{text}</span>
      {more ? (
        <>
          {' '}
          <AppLink to={paths.activityHistory} className="points__pending-link">
            {t('home.pending.scheduleLink')}
          </AppLink>
        </>
      ) : null}
    </p>
  );
}
