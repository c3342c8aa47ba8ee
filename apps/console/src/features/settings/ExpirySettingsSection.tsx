import { useId, useMemo, useState } from 'react';
import type { ExpiryPolicy } from '@rewards/contract';
import type { ConsoleClient } from '@rewards/contract/console';
import { MAX_REMINDER_DAYS, type ExpirySettings } from '@rewards/contract/console-clients';
import { getExpirySettings } from '../../api/expiry.ts';
import { t } from '../../i18n/t.ts';
import { Field, NumberField } from '../../ui/Form.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { describeMails, describePolicy, timeZones } from './expiry-words.ts';
import { Fact } from '../../ui/Fact.tsx';
import { SettingsSection, type ChangeDialogProps } from './SettingsSection.tsx';
import { queryKeys } from '../../api/query-keys.ts';
import { useSaveExpiry } from './mutations.ts';

type PolicyType = ExpiryPolicy['type'];
type Period = Extract<ExpiryPolicy, { type: 'calendar' }>['period'];

/**
 * A client's points expiry (issue 19, decision 062): the policy in words, the time zone and the
 * reminder mails; a program manager or owner changes them with a reason. Others read only.
 */
export function ExpirySettingsSection({ client, canChange }: { client: ConsoleClient; canChange: boolean }) {
  return (
    <SettingsSection
      title={t('expiry.title')}
      queryKey={queryKeys.settings.expiry(client.id)}
      load={() => getExpirySettings(client.id)}
      canChange={canChange}
      changeLabel={t('expiry.change')}
      savedText={t('expiry.saved')}
      unchangedText={t('expiry.unchanged')}
      shown={(data) => (
        <>
          <dl className="facts">
            <Fact label={t('expiry.policy')}>{describePolicy(data.policy, data.timeZone)}</Fact>
            <Fact label={t('expiry.timeZone')}>{data.timeZone}</Fact>
            <Fact label={t('expiry.mails')}>{describeMails(data)}</Fact>
          </dl>
        </>
      )}
      dialog={(props) => <ExpiryDialog client={client} {...props} />}
    />
  );
}

/** A whole number from a field, or NaN. */
const whole = (text: string) => (/^\d{1,4}$/.test(text.trim()) ? Number(text) : Number.NaN);
const within = (n: number, min: number, max: number) => Number.isInteger(n) && n >= min && n <= max;

function ExpiryDialog({ client, current, onClose, onSaved }: ChangeDialogProps<ExpirySettings> & { client: ConsoleClient }) {
  const p = current.policy;
  const [type, setType] = useState<PolicyType>(p.type);
  const [months, setMonths] = useState(String(p.type === 'rolling' || p.type === 'inactivity' ? p.months : 12));
  const [period, setPeriod] = useState<Period>(p.type === 'calendar' ? p.period : 'year');
  const [count, setCount] = useState(String(p.type === 'calendar' ? p.count : 1));
  const [timeZone, setTimeZone] = useState(current.timeZone);
  const [reminder, setReminder] = useState(String(current.reminderDays));
  const [lastChance, setLastChance] = useState(String(current.lastChanceDays));
  const zones = useMemo(() => timeZones(), []);
  const zoneListId = useId();

  const policy: ExpiryPolicy | undefined =
    type === 'none'
      ? { type }
      : type === 'calendar'
        ? within(whole(count), 0, 10)
          ? { type, period, count: whole(count) }
          : undefined
        : within(whole(months), 1, 120)
          ? { type, months: whole(months) }
          : undefined;
  const reminderDays = whole(reminder);
  const lastChanceDays = whole(lastChance);
  const daysReady =
    within(reminderDays, 1, MAX_REMINDER_DAYS) && within(lastChanceDays, 0, MAX_REMINDER_DAYS - 1) && reminderDays > lastChanceDays;
  const ready = policy !== undefined && daysReady && timeZone.trim().length > 0;
  const mutation = useSaveExpiry(client.id);

  return (
    <ReasonDialog
      title={t('expiry.changeTitle', { client: client.name })}
      intro={<p>{t('expiry.intro')}</p>}
      submitLabel={t('settings.save')}
      ready={ready}
      onClose={onClose}
      mutation={mutation}
      variables={(reason) => (policy ? { policy, timeZone: timeZone.trim(), reminderDays, lastChanceDays, reason } : undefined)}
      onDone={(done) => onSaved(done.auditId !== null)}
    >
      <Field label={t('expiry.policy')}>
        {(id) => (
          <select id={id} value={type} onChange={(e) => setType(e.target.value as PolicyType)}>
            <option value="none">{t('expiry.type.none')}</option>
            <option value="rolling">{t('expiry.type.rolling')}</option>
            <option value="calendar">{t('expiry.type.calendar')}</option>
            <option value="inactivity">{t('expiry.type.inactivity')}</option>
          </select>
        )}
      </Field>
      {type === 'rolling' || type === 'inactivity' ? (
        <NumberField label={t('expiry.months')} hint={t('expiry.monthsHint')} min={1} max={120} value={months} onChange={setMonths} />
      ) : null}
      {type === 'calendar' ? (
        <div className="role-grid">
          <Field label={t('expiry.period')}>
            {(id) => (
              <select id={id} value={period} onChange={(e) => setPeriod(e.target.value as Period)}>
                <option value="month">{t('expiry.period.month')}</option>
                <option value="quarter">{t('expiry.period.quarter')}</option>
                <option value="year">{t('expiry.period.year')}</option>
              </select>
            )}
          </Field>
          <NumberField label={t('expiry.count')} hint={t('expiry.countHint')} min={0} max={10} value={count} onChange={setCount} />
        </div>
      ) : null}
      <Field label={t('expiry.timeZone')} hint={t('expiry.timeZoneHint')}>
        {(id, hint) => (
          <>
            <input
              id={id}
              aria-describedby={hint}
              list={zoneListId}
              value={timeZone}
              onChange={(e) => setTimeZone(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              required
            />
            <datalist id={zoneListId}>
              {zones.map((zone) => (
                <option key={zone} value={zone} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      <div className="role-grid">
        <NumberField label={t('expiry.reminderDays')} min={1} max={MAX_REMINDER_DAYS} value={reminder} onChange={setReminder} />
        <NumberField label={t('expiry.lastChanceDays')} min={0} max={MAX_REMINDER_DAYS - 1} value={lastChance} onChange={setLastChance} />
      </div>
      {within(reminderDays, 1, MAX_REMINDER_DAYS) && within(lastChanceDays, 0, MAX_REMINDER_DAYS) && !daysReady ? (
        <p className="error">{t('expiry.daysOrder')}</p>
      ) : null}
      <p className="muted" aria-live="polite">
        {policy ? describePolicy(policy, timeZone.trim() || 'UTC') : t('expiry.incomplete')}
      </p>
    </ReasonDialog>
  );
}
