import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { RequestError } from '../../api/client.ts';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useServices } from '../../state/StoreContext.tsx';
import { launchAs } from '../../state/session.ts';
import { paths } from '../../routing/paths.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useNoReferrer } from '../../ui/useNoReferrer.ts';
import './launch-as.css';

/** Tokens already posted by this page: a token works once, so a re-mount (React's strict mode) must not post it again. */
const posted = new Set<string>();

/**
 * /launch-as?token=… (spec sections 2, 4, 5; issue 9): a support administrator's single-use link.
 * The token is read once and taken out of the address bar and history; the page asks for no
 * Referer while open. An empty query raises the 'No login token' error; a refused token shows
 * the server's reason (expired, used, not for this site) and opens nothing.
 */
export default function LaunchAsPage() {
  const services = useServices();
  const { t } = useI18n();
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => new URLSearchParams(location.search).get('token')?.trim() ?? '');
  const [errorKey, setErrorKey] = useState<string | null>(() => (token ? null : 'launchAs.error.noToken'));
  const heading = useRef<HTMLHeadingElement>(null);

  useNoReferrer();

  useEffect(() => {
    if (location.search) void navigate({ pathname: location.pathname }, { replace: true });
  }, [location, navigate]);

  useEffect(() => {
    if (!token || posted.has(token)) return;
    posted.add(token);
    launchAs(services, token).then(
      // Signed in: the route guard would send the page to /home anyway; say so plainly.
      () => void navigate(paths.home, { replace: true }),
      (error: unknown) => {
        const key = error instanceof RequestError ? error.responseMessage || 'error.generic' : 'error.generic';
        setErrorKey(key.startsWith('launchAs.') || key.startsWith('error.') ? key : 'launchAs.error.invalid');
      },
    );
  }, [services, token, navigate]);

  useEffect(() => {
    if (errorKey) heading.current?.focus();
  }, [errorKey]);

  if (!errorKey) {
    return (
      <div className="launch-as launch-as--busy" role="status" aria-live="polite">
        <Spinner size="lg" />
        <p>{t('launchAs.opening')}</p>
      </div>
    );
  }
  return (
    <div className="launch-as">
      <h1 ref={heading} tabIndex={-1}>
        {t('launchAs.error.heading')}
      </h1>
      <Alert kind="error">{t(errorKey)}</Alert>
      <p>
        <Link to={paths.login}>{t('common.backToLogin')}</Link>
      </p>
    </div>
  );
}
