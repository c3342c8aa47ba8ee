import { useI18n, Trans } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { acknowledgePrivacy } from '../../state/session.ts';
import { paths } from '../../routing/paths.ts';
import { AppLink } from '../../ui/AppLink.tsx';
import { Button } from '../../ui/Button.tsx';
import './cookie-notice.css';

/**
 * Spec section 2: shown when the privacy notice version is above 0, it has not been
 * acknowledged, and the app has loaded.
 *
 * Decision for anonymous visitors (the spec only speaks of users): they see it too, since the
 * portal stores session data before anyone signs in. Their acknowledgement is kept in
 * localStorage for that version, and the link goes to the privacy policy because the privacy
 * notice page is for signed-in users only. A signed-in user's acknowledgement goes to the server
 * (PUT acknowledge-privacy-notice); an anonymous one does not carry over to an account.
 */
export function CookieNotice() {
  const services = useServices();
  const { t } = useI18n();
  const loaded = useAppState((s) => s.status === 'loaded');
  const user = useAppState((s) => s.user);
  const clientVersion = useAppState((s) => s.client?.privacyNoticeVersion ?? 0);
  const anonymousAck = useAppState((s) => s.anonymousPrivacyAck);
  const busy = useAppState((s) => s.busy.privacy);

  const visible = user
    ? user.privacyNotice.version > 0 && !user.privacyNotice.hasAcknowledged
    : clientVersion > 0 && anonymousAck < clientVersion;
  // Consent is the participant's own: an administrator acting as them is not asked (issue 9).
  if (!loaded || !visible || user?.adminAsUser) return null;

  const link = (
    <AppLink to={user ? paths.privacyNotice : paths.privacyPolicy}>{t(user ? 'cookie.link.notice' : 'cookie.link.policy')}</AppLink>
  );
  return (
    <section className="cookie" aria-label={t('cookie.label')}>
      <div className="cookie__inner">
        <p className="cookie__text">
          <Trans k="cookie.message" values={{ link }} />
        </p>
        <Button onClick={() => void acknowledgePrivacy(services)} busy={busy} busyLabel={t('cookie.close')}>
          {t('cookie.close')}
        </Button>
      </div>
    </section>
  );
}
