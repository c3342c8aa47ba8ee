import { useState } from 'react';
import type { PasswordRules } from '@rewards/contract';
import type { ConsoleClient } from '@rewards/contract/console';
import { ACTIVATION_FIELDS } from '@rewards/contract/activation-fields';
import type { ProgramSettings } from '@rewards/contract/console-clients';
import { getProgramSettings } from '../../api/client-settings.ts';
import { t, type MessageKey } from '../../i18n/t.ts';
import { Field, NumberField } from '../../ui/Form.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { Fact } from '../../ui/Fact.tsx';
import { SettingsSection, type ChangeDialogProps } from './SettingsSection.tsx';
import { queryKeys } from '../../api/query-keys.ts';
import { useSaveProgram } from './mutations.ts';

const SWITCHES = ['requireUpper', 'requireLower', 'requireDigit', 'requireSymbol', 'notUsername'] as const;
const switchKey = (name: (typeof SWITCHES)[number]) => `clientSettings.program.${name}` as MessageKey;

function rulesInWords(rules: PasswordRules): string {
  const on = SWITCHES.filter((name) => rules[name]).map((name) => t(switchKey(name)).toLowerCase());
  return [t('clientSettings.program.lengths', { min: rules.minLength, max: rules.maxLength }), ...on].join(', ');
}

/**
 * A client's program rules (issue 20 §3, decision 065): password rules, activation fields, the
 * travel link, the support e-mail and the privacy notice version. Program managers and owners change
 * them with a reason; the server checks them as `rewards clients` does. Others read.
 */
export function ProgramSection({ client, canChange }: { client: ConsoleClient; canChange: boolean }) {
  return (
    <SettingsSection
      title={t('clientSettings.program.title')}
      queryKey={queryKeys.settings.program(client.id)}
      load={() => getProgramSettings(client.id)}
      canChange={canChange}
      changeLabel={t('clientSettings.program.change')}
      savedText={t('clientSettings.program.saved')}
      shown={(data) => (
        <>
          <dl className="facts">
            <Fact label={t('clientSettings.program.passwordRules')}>{rulesInWords(data.passwordRules)}</Fact>
            <Fact label={t('clientSettings.program.activationFields')}>
              {data.activationFields.length === 0 ? t('clientSettings.program.noActivation') : data.activationFields.join(', ')}
            </Fact>
            <Fact label={t('clientSettings.program.travelUrl')}>{data.travelUrl ?? t('clientSettings.program.none')}</Fact>
            <Fact label={t('clientSettings.program.supportEmail')}>{data.supportEmail || t('clientSettings.program.none')}</Fact>
            <Fact label={t('clientSettings.program.privacyNoticeVersion')}>{data.privacyNoticeVersion}</Fact>
          </dl>
        </>
      )}
      dialog={(props) => <ProgramDialog client={client} {...props} />}
    />
  );
}

const whole = (text: string) => (/^\d{1,7}$/.test(text.trim()) ? Number(text) : Number.NaN);

function ProgramDialog({ client, current, onClose, onSaved }: ChangeDialogProps<ProgramSettings> & { client: ConsoleClient }) {
  const [min, setMin] = useState(String(current.passwordRules.minLength));
  const [max, setMax] = useState(String(current.passwordRules.maxLength));
  const [switches, setSwitches] = useState(() => Object.fromEntries(SWITCHES.map((name) => [name, current.passwordRules[name]])));
  const [fields, setFields] = useState<string[]>(current.activationFields);
  const [travel, setTravel] = useState(current.travelUrl ?? '');
  const [email, setEmail] = useState(current.supportEmail);
  const [version, setVersion] = useState(String(current.privacyNoticeVersion));
  const ready = Number.isInteger(whole(min)) && Number.isInteger(whole(max)) && Number.isInteger(whole(version));
  const mutation = useSaveProgram(client.id);
  return (
    <ReasonDialog
      title={t('clientSettings.program.changeTitle', { client: client.name })}
      intro={<p>{t('clientSettings.program.intro')}</p>}
      submitLabel={t('settings.save')}
      ready={ready}
      onClose={onClose}
      mutation={mutation}
      variables={(reason) => ({
        passwordRules: {
          minLength: whole(min),
          maxLength: whole(max),
          requireUpper: Boolean(switches.requireUpper),
          requireLower: Boolean(switches.requireLower),
          requireDigit: Boolean(switches.requireDigit),
          requireSymbol: Boolean(switches.requireSymbol),
          notUsername: Boolean(switches.notUsername),
        },
        // In the contract's order, as the command lists them.
        activationFields: ACTIVATION_FIELDS.filter((f) => fields.includes(f)),
        travelUrl: travel.trim() === '' ? null : travel.trim(),
        supportEmail: email.trim(),
        privacyNoticeVersion: whole(version),
        reason,
      })}
      onDone={(done) => onSaved(done.auditId !== null)}
    >
      <div className="role-grid">
        <NumberField label={t('clientSettings.program.minLength')} min={4} max={200} value={min} onChange={setMin} />
        <NumberField label={t('clientSettings.program.maxLength')} min={4} max={200} value={max} onChange={setMax} />
      </div>
      <fieldset className="locale-row">
        <legend>{t('clientSettings.program.passwordRules')}</legend>
        {SWITCHES.map((name) => (
          <label key={name} className="check">
            <input
              type="checkbox"
              checked={Boolean(switches[name])}
              onChange={(e) => setSwitches((all) => ({ ...all, [name]: e.target.checked }))}
            />{' '}
            {t(switchKey(name))}
          </label>
        ))}
      </fieldset>
      <fieldset className="locale-row">
        <legend>{t('clientSettings.program.activationFields')}</legend>
        {ACTIVATION_FIELDS.map((name) => (
          <label key={name} className="check">
            <input
              type="checkbox"
              checked={fields.includes(name)}
              onChange={(e) => setFields((all) => (e.target.checked ? [...all, name] : all.filter((f) => f !== name)))}
            />{' '}
            {name}
          </label>
        ))}
      </fieldset>
      <Field label={t('clientSettings.program.travelUrl')} hint={t('clientSettings.program.travelHint')}>
        {(id, hint) => <input id={id} aria-describedby={hint} value={travel} onChange={(e) => setTravel(e.target.value)} />}
      </Field>
      <Field label={t('clientSettings.program.supportEmail')}>
        {(id) => <input id={id} type="email" value={email} onChange={(e) => setEmail(e.target.value)} />}
      </Field>
      <NumberField
        label={t('clientSettings.program.privacyNoticeVersion')}
        hint={t('clientSettings.program.privacyHint')}
        min={0}
        value={version}
        onChange={setVersion}
      />
    </ReasonDialog>
  );
}
