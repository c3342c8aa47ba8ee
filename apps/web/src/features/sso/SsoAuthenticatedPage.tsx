import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { SSO_PRE_ACTIVATION_CODE, SSO_SESSION_PARAM } from '@rewards/contract/sso';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useServices } from '../../state/StoreContext.tsx';
import { signInWith } from '../../state/session.ts';
import type { ErrorType } from '../../state/errors.ts';
import { paths } from '../../routing/paths.ts';
import { exchangeSsoSession } from './api.ts';
import './sso.css';

/** What the page was told, read once from the address (spec sections 2 and 4, SSO). */
type Arrival = { kind: 'session'; id: string } | { kind: 'preActivation' } | { kind: 'failed'; type: ErrorType; key: string };

export function readArrival(search: string): Arrival {
  const params = new URLSearchParams(search);
  const id = params.get(SSO_SESSION_PARAM);
  if (id) return { kind: 'session', id };
  if (params.has('invalid')) return { kind: 'failed', type: 'ssoInvalidCredentials', key: 'sso.error.invalidCredentials' };
  if (params.get('code') === String(SSO_PRE_ACTIVATION_CODE)) return { kind: 'preActivation' };
  if (params.has('error')) return { kind: 'failed', type: 'ssoAuthenticated', key: 'sso.error.login' };
  return { kind: 'failed', type: 'ssoNoSessionId', key: 'sso.error.noSessionId' };
}

/**
 * /sso-authenticated: where the server sends the browser after the provider. A session id is
 * taken out of the address at once (it must not stay in history, a bookmark or a Referer), then
 * swapped by GET user for the real session; failures go to the sign-in page with their message.
 */
export default function SsoAuthenticatedPage() {
  const services = useServices();
  const { t } = useI18n();
  const navigate = useNavigate();
  // The id is good once: a second run of the effect (React's development double run) must not spend it.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const arrival = readArrival(window.location.search);
    window.history.replaceState(null, '', '/');
    const { store, api } = services;
    store.dismissErrors('ssoInvalidCredentials', 'ssoAuthenticated', 'ssoNoSessionId', 'ssoFetchProfile');

    if (arrival.kind === 'preActivation') {
      store.setState({ preActivationWarning: true });
      void navigate(paths.login, { replace: true });
      return;
    }
    if (arrival.kind === 'failed') {
      store.addError(arrival.type, { errorCode: null, responseMessage: arrival.key, message: arrival.key });
      void navigate(paths.login, { replace: true });
      return;
    }
    void (async () => {
      try {
        await signInWith(services, await exchangeSsoSession(api, arrival.id));
        void navigate(paths.home, { replace: true });
      } catch {
        // A spent or stale id (401) or the server down: nobody is signed in.
        store.addError('ssoFetchProfile', { errorCode: null, responseMessage: 'sso.error.userData', message: 'sso.error.userData' });
        void navigate(paths.login, { replace: true });
      }
    })();
  }, [services, navigate]);

  return (
    <div className="sso-wait" role="status">
      <span className="sso-wait__spinner" aria-hidden="true" />
      <h1 tabIndex={-1}>{t('ssoAuthenticated.heading')}</h1>
    </div>
  );
}
