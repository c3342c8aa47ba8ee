import { Link } from 'react-router';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { paths } from '../../routing/paths.ts';
import { Alert } from '../../ui/Alert.tsx';

/**
 * What the forgot pages show once the request is sent: the success message, what to expect of the
 * mail, and the way back to sign in. The same whatever was entered (nobody learns who is enrolled).
 */
export function RequestSent({ message, notes }: { message: string; notes: readonly string[] }) {
  const { t } = useI18n();
  return (
    <div className="auth__done">
      <Alert kind="success">{t(message)}</Alert>
      {notes.map((note) => (
        <p key={note} className="auth__note">
          {t(note)}
        </p>
      ))}
      <Link className="ui-button ui-button--primary auth__submit" to={paths.login}>
        {t('account.signIn')}
      </Link>
    </div>
  );
}
