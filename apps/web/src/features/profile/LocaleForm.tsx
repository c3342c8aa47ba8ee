import { useId, useState, type FormEvent } from 'react';
import type { LocaleOption } from '@rewards/contract';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { errorText } from '../../state/errors.ts';
import { switchLocale } from '../../state/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';

const noLocales: readonly LocaleOption[] = [];

/**
 * The language section: the client's languages, each named in its own language, and Save. Saving
 * goes through the same switchLocale as the header's selector (bundle, direction, POST user/locale).
 */
export function LocaleForm() {
  const services = useServices();
  const { store } = services;
  const { t, locale, mediaLabel } = useI18n();
  const id = useId();
  const locales = useAppState((s) => s.client?.localeList ?? noLocales);
  const busy = useAppState((s) => s.busy.locale);
  const errors = useAppState((s) => s.errors);
  const successes = useAppState((s) => s.successes);
  const [chosen, setChosen] = useState(locale.code);
  const adminAsUser = useAppState((s) => s.user?.adminAsUser === true);

  const shownErrors = errors.filter((e) => e.errorType === 'setLocale' || e.errorType === 'bundle');
  const success = successes.find((s) => s.successType === 'setLocale');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const option = locales.find((l) => l.code === chosen);
    if (!option || busy) return;
    store.dismissSuccess('setLocale');
    await switchLocale(services, { code: option.code, dir: option.dir });
    const state = store.getState();
    // switchLocale records its own failures; success is the store showing the chosen language.
    const failed = state.errors.some((e) => e.errorType === 'setLocale' || e.errorType === 'bundle');
    if (!failed && state.user && !state.user.adminAsUser && state.locale.code === option.code) {
      store.addSuccess({ successType: 'setLocale', message: 'profile.page.localeSuccessMessage' });
    }
  };

  if (locales.length === 0) return null;
  return (
    <section className="profile__section profile__section--locale" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t('profile.locale.heading')}</h2>
      <div className="profile__alerts">
        {adminAsUser ? <Alert kind="info">{t('launchAs.locale.local')}</Alert> : null}
        {shownErrors.map((error) => (
          <Alert key={error.errorId} kind="error" onDismiss={() => store.dismissError(error.errorId)} dismissLabel={t('common.dismiss')}>
            {errorText(error, t, mediaLabel())}
          </Alert>
        ))}
        {success ? (
          <Alert kind="success" onDismiss={() => store.dismissSuccess('setLocale')} dismissLabel={t('common.dismiss')}>
            {t(success.message)}
          </Alert>
        ) : null}
      </div>
      <form className="profile-locale" onSubmit={(e) => void onSubmit(e)} aria-busy={busy || undefined}>
        <fieldset className="profile-locale__options">
          <legend>{t('profile.locale.legend')}</legend>
          {locales.map((option) => (
            <label key={option.code} className="profile-locale__option">
              <input
                type="radio"
                name={`${id}-locale`}
                value={option.code}
                checked={chosen === option.code}
                onChange={() => setChosen(option.code)}
              />
              <span lang={option.code} dir={option.dir}>
                {option.name}
              </span>
            </label>
          ))}
        </fieldset>
        <div>
          <Button type="submit" variant="secondary" busy={busy} busyLabel={t('profile.locale.busy')}>
            {t('profile.locale.submit')}
          </Button>
        </div>
      </form>
    </section>
  );
}
