import type { ExpiryPolicy } from '@rewards/contract';
import type { ExpirySettings } from '@rewards/contract/console-clients';
import { t } from '../../i18n/t.ts';

/** The policy in words, as `rewards clients show` says it (English is the console's only table). */
export function describePolicy(policy: ExpiryPolicy, timeZone: string): string {
  switch (policy.type) {
    case 'none':
      return t('expiry.words.none');
    case 'rolling':
      return t(policy.months === 1 ? 'expiry.words.rollingOne' : 'expiry.words.rolling', { months: policy.months, timeZone });
    case 'calendar': {
      const period = t(`expiry.period.${policy.period}`);
      if (policy.count === 0) return t('expiry.words.calendarSame', { period, timeZone });
      if (policy.count === 1) return t('expiry.words.calendarNext', { period, timeZone });
      return t('expiry.words.calendarLater', { ordinal: ordinal(policy.count), period, timeZone });
    }
    case 'inactivity':
      return t(policy.months === 1 ? 'expiry.words.inactivityOne' : 'expiry.words.inactivity', { months: policy.months, timeZone });
  }
}

const ordinals = new Intl.PluralRules('en', { type: 'ordinal' });
/** 2nd, 3rd, 4th: English ordinal forms (one, two, few, other). */
function ordinal(n: number): string {
  const form = ordinals.select(n);
  return t(form === 'one' || form === 'two' || form === 'few' ? `expiry.ordinal.${form}` : 'expiry.ordinal.other', { n });
}

export function describeMails(settings: Pick<ExpirySettings, 'reminderDays' | 'lastChanceDays'>): string {
  const days = (n: number) => (n === 0 ? t('expiry.days.zero') : n === 1 ? t('expiry.days.one') : t('expiry.days.other', { n }));
  return t('expiry.words.mails', { reminder: days(settings.reminderDays), lastChance: days(settings.lastChanceDays) });
}

/** The zones the browser knows, for the time zone field's suggestions (the server checks what is sent). */
export function timeZones(): string[] {
  return ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];
}
