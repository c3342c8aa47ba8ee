import { useState } from 'react';
import type { ConsoleClient } from '@rewards/contract/console';
import type { LabelForms, LocaleSettings } from '@rewards/contract/console-clients';
import { getLocaleSettings } from '../../api/client-settings.ts';
import { t } from '../../i18n/t.ts';
import { Field } from '../../ui/Form.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { SettingsSection, type ChangeDialogProps } from './SettingsSection.tsx';
import { queryKeys } from '../../api/query-keys.ts';
import { useSaveLocales } from './mutations.ts';

/** A locale's plural categories as the server checks them (Intl.PluralRules); none for a tag that is not one. */
function categories(code: string): string[] {
  try {
    return new Intl.PluralRules(code).resolvedOptions().pluralCategories as string[];
  } catch {
    return [];
  }
}

const labelText = (forms: LabelForms | undefined) =>
  !forms
    ? '—'
    : Object.keys(forms).length === 1
      ? (forms.other ?? '')
      : Object.entries(forms)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ');

/**
 * A client's locales, default locale and media labels (issue 20 §3, decision 065). A label is one
 * text for every number, or a text per plural form of the locale. Program managers and owners change
 * them with a reason; the server checks them as `rewards clients --locale --media-label` does.
 */
export function LocalesSection({ client, canChange }: { client: ConsoleClient; canChange: boolean }) {
  return (
    <SettingsSection
      title={t('clientSettings.locales.title')}
      queryKey={queryKeys.settings.locales(client.id)}
      load={() => getLocaleSettings(client.id)}
      canChange={canChange}
      changeLabel={t('clientSettings.locales.change')}
      savedText={t('clientSettings.locales.saved')}
      shown={(data) => (
        <>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t('clientSettings.locales.code')}</th>
                <th scope="col">{t('clientSettings.locales.name')}</th>
                <th scope="col">{t('clientSettings.locales.label')}</th>
              </tr>
            </thead>
            <tbody>
              {data.locales.map((l) => (
                <tr key={l.code}>
                  <td>
                    {l.code}
                    {l.code === data.defaultLocale ? ` (${t('clientSettings.locales.default')})` : ''}
                  </td>
                  <td lang={l.code} dir={l.dir}>
                    {l.name}
                  </td>
                  <td lang={l.code} dir={l.dir}>
                    {labelText(data.mediaLabels.find((m) => m.locale === l.code)?.forms)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      dialog={(props) => <LocalesDialog client={client} {...props} />}
    />
  );
}

interface Row {
  key: number;
  code: string;
  name: string;
  dir: 'ltr' | 'rtl';
  /** One text for every form, or a text per category. */
  single: boolean;
  text: string;
  forms: Record<string, string>;
}

function LocalesDialog({ client, current, onClose, onSaved }: ChangeDialogProps<LocaleSettings> & { client: ConsoleClient }) {
  const [rows, setRows] = useState<Row[]>(() =>
    current.locales.map((l, key) => {
      const forms = current.mediaLabels.find((m) => m.locale === l.code)?.forms ?? {};
      const single = Object.keys(forms).length <= 1;
      return { key, code: l.code, name: l.name, dir: l.dir, single, text: forms.other ?? '', forms: { ...forms } };
    }),
  );
  const [defaultLocale, setDefaultLocale] = useState(current.defaultLocale);
  const update = (key: number, change: Partial<Row>) => setRows((all) => all.map((r) => (r.key === key ? { ...r, ...change } : r)));
  const codes = rows.map((r) => r.code.trim());
  const ready = rows.length > 0 && codes.every((c) => c.length > 0) && codes.includes(defaultLocale);
  const mutation = useSaveLocales(client.id);
  return (
    <ReasonDialog
      title={t('clientSettings.locales.changeTitle', { client: client.name })}
      intro={<p>{t('clientSettings.locales.intro')}</p>}
      submitLabel={t('settings.save')}
      ready={ready}
      onClose={onClose}
      mutation={mutation}
      variables={(reason) => ({
        locales: rows.map((r) => ({ code: r.code.trim(), dir: r.dir, name: r.name.trim() || undefined })),
        defaultLocale,
        mediaLabels: rows
          .filter((r) => (r.single ? r.text.trim() !== '' : Object.values(r.forms).some((v) => v.trim() !== '')))
          .map((r) => ({
            locale: r.code.trim(),
            label: r.single
              ? r.text
              : Object.fromEntries(
                  Object.entries(r.forms).filter(([category, v]) => v.trim() !== '' && categories(r.code.trim()).includes(category)),
                ),
          })),
        reason,
      })}
      onDone={(done) => onSaved(done.auditId !== null)}
    >
      {rows.map((row, index) => (
        <fieldset key={row.key} className="locale-row">
          <legend>{t('clientSettings.locales.locale', { n: index + 1 })}</legend>
          <div className="role-grid">
            <Field label={t('clientSettings.locales.code')} hint={t('clientSettings.locales.codeHint')}>
              {(id, hint) => (
                <input
                  id={id}
                  aria-describedby={hint}
                  value={row.code}
                  onChange={(e) => update(row.key, { code: e.target.value })}
                  required
                />
              )}
            </Field>
            <Field label={t('clientSettings.locales.name')}>
              {(id) => <input id={id} value={row.name} onChange={(e) => update(row.key, { name: e.target.value })} />}
            </Field>
            <Field label={t('clientSettings.locales.dir')}>
              {(id) => (
                <select id={id} value={row.dir} onChange={(e) => update(row.key, { dir: e.target.value === 'rtl' ? 'rtl' : 'ltr' })}>
                  <option value="ltr">{t('clientSettings.locales.ltr')}</option>
                  <option value="rtl">{t('clientSettings.locales.rtl')}</option>
                </select>
              )}
            </Field>
            <Field label={t('clientSettings.locales.labelMode')}>
              {(id) => (
                <select
                  id={id}
                  value={row.single ? 'single' : 'forms'}
                  onChange={(e) => update(row.key, { single: e.target.value === 'single' })}
                >
                  <option value="single">{t('clientSettings.locales.single')}</option>
                  <option value="forms">{t('clientSettings.locales.forms')}</option>
                </select>
              )}
            </Field>
          </div>
          {row.single ? (
            <Field label={t('clientSettings.locales.label')}>
              {(id) => <input id={id} value={row.text} maxLength={60} onChange={(e) => update(row.key, { text: e.target.value })} />}
            </Field>
          ) : (
            <div className="role-grid">
              {categories(row.code.trim()).map((category) => (
                <Field key={category} label={t('clientSettings.locales.form', { form: category })}>
                  {(id) => (
                    <input
                      id={id}
                      value={row.forms[category] ?? ''}
                      maxLength={60}
                      onChange={(e) => update(row.key, { forms: { ...row.forms, [category]: e.target.value } })}
                    />
                  )}
                </Field>
              ))}
            </div>
          )}
          <button
            type="button"
            className="button"
            disabled={rows.length === 1}
            onClick={() => setRows((all) => all.filter((r) => r.key !== row.key))}
          >
            {t('clientSettings.locales.remove', { code: row.code || String(index + 1) })}
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        className="button"
        onClick={() =>
          setRows((all) => [
            ...all,
            { key: Math.max(0, ...all.map((r) => r.key)) + 1, code: '', name: '', dir: 'ltr', single: true, text: '', forms: {} },
          ])
        }
      >
        {t('clientSettings.locales.add')}
      </button>
      <Field label={t('clientSettings.locales.defaultLocale')}>
        {(id) => (
          <select id={id} value={defaultLocale} onChange={(e) => setDefaultLocale(e.target.value)}>
            {codes
              .filter((c) => c.length > 0)
              .map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
          </select>
        )}
      </Field>
    </ReasonDialog>
  );
}
