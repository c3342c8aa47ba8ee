import { useEffect } from 'react';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { LocaleForm } from './LocaleForm.tsx';
import { PasswordForm } from './PasswordForm.tsx';
import './profile.css';

/** The profile modal (/profile): the participant's details, password and language. */
export default function ProfilePage() {
  const { store } = useServices();
  const { t } = useI18n();
  const user = useAppState((s) => s.user);
  const rules = useAppState((s) => s.client?.passwordRules);

  // The modal's messages belong to it: closing it clears them, so none shows up on the page behind.
  useEffect(
    () => () => {
      store.dismissErrors('changePassword', 'setLocale');
      store.dismissSuccess('changePassword');
      store.dismissSuccess('setLocale');
    },
    [store],
  );

  return (
    <div className="profile">
      <h1 tabIndex={-1}>{t('profile.heading')}</h1>
      <p className="profile__intro">{t('profile.intro')}</p>
      {user ? (
        <section className="profile__section profile__section--details" aria-labelledby="profile-details-heading">
          <h2 id="profile-details-heading">{t('profile.details.heading')}</h2>
          <dl className="profile-details">
            <div>
              <dt>{t('profile.details.name')}</dt>
              <dd>{`${user.firstName} ${user.lastName}`}</dd>
            </div>
            <div>
              <dt>{t('profile.details.username')}</dt>
              <dd>
                <bdi>{user.userName}</bdi>
              </dd>
            </div>
            <div>
              <dt>{t('profile.details.accountNumber')}</dt>
              <dd>{user.accountNumber}</dd>
            </div>
          </dl>
        </section>
      ) : null}
      {user && rules ? <PasswordForm rules={rules} username={user.userName} adminAsUser={user.adminAsUser} /> : null}
      <LocaleForm />
    </div>
  );
}
