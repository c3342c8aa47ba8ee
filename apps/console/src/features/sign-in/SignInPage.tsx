import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { StaffOidcOutcome } from '@rewards/contract/console';
import type { SecondFactor } from '@rewards/contract/console';
import { useMe, type SignedOutReason } from '../../app/session.tsx';
import { t, type MessageKey } from '../../i18n/t.ts';
import { ErrorMessage, Field } from '../../ui/Form.tsx';
import { getSignInMethods, oidcOutcomeOf, providerSignInHref } from './oidc.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { useSignInFactor, useSignInPassword, type SignInFactor } from './mutations.ts';

const REASON_MESSAGE: Record<SignedOutReason, MessageKey> = {
  idle: 'signIn.reason.idle',
  ended: 'signIn.reason.ended',
  signedOut: 'signIn.reason.signedOut',
};

const OIDC_MESSAGE: Record<StaffOidcOutcome, MessageKey> = {
  secondFactor: 'signIn.oidc.secondFactor',
  unknown: 'signIn.oidc.unknown',
  disabled: 'signIn.oidc.disabled',
  unverified: 'signIn.oidc.unverified',
  noSecondFactor: 'signIn.oidc.noSecondFactor',
  error: 'signIn.oidc.error',
  gateway: 'signIn.oidc.gateway',
  refused: 'signIn.oidc.refused',
  off: 'signIn.oidc.off',
};

/**
 * Sign-in: e-mail and password, then one second factor of those the account has — a passkey, a
 * code of the authenticator app, or a recovery code. Where the installation has its own OpenID
 * provider (decision 068), a button to it first; back from it without a second factor the
 * provider vouched for, the same second step (`?oidc=secondFactor&factors=…`).
 */
export function SignInPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const me = useMe();
  const state = (location.state ?? {}) as { reason?: SignedOutReason; from?: string };
  const [params, setParams] = useSearchParams();
  const [oidc] = useState(() => oidcOutcomeOf(params));
  const methods = useQuery({ queryKey: queryKeys.signInMethods(), queryFn: getSignInMethods, staleTime: Infinity });
  const [factors, setFactors] = useState<SecondFactor[] | null>(() => (oidc?.outcome === 'secondFactor' ? oidc.factors : null));
  const [notice, setNotice] = useState(oidc);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [mode, setMode] = useState<'totp' | 'recoveryCode' | null>(() =>
    factors === null || factors.includes('totp') ? 'totp' : factors.includes('recoveryCode') ? 'recoveryCode' : null,
  );
  const provider = methods.data?.provider ?? null;
  const passwordOn = methods.data?.password ?? true;
  const [code, setCode] = useState('');
  const first = useSignInPassword();
  const second = useSignInFactor();
  const busy = first.isPending || second.isPending;

  if (me.data) return <Navigate to={state.from ?? '/participants'} replace />;

  const submitPassword = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    first.mutate(
      { email, password },
      {
        onSuccess: (reply) => {
          setFactors(reply.secondFactors);
          setMode(reply.secondFactors.includes('totp') ? 'totp' : null);
          setPassword('');
        },
      },
    );
  };
  const signInWith = (factor: SignInFactor) => {
    if (busy) return;
    second.mutate(factor, { onSuccess: () => navigate(state.from ?? '/participants', { replace: true }) });
  };
  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    signInWith({ kind: mode === 'totp' ? 'totp' : 'recoveryCode', code });
  };
  const usePasskey = () => signInWith({ kind: 'passkey' });

  return (
    <main id="main" className="signin">
      <h1>{t('app.name')}</h1>
      {state.reason ? (
        <p className="notice" role="status">
          {t(REASON_MESSAGE[state.reason])}
        </p>
      ) : null}
      {notice ? (
        <p className={notice.outcome === 'secondFactor' ? 'notice' : 'error'} role={notice.outcome === 'secondFactor' ? 'status' : 'alert'}>
          {t(OIDC_MESSAGE[notice.outcome])}
        </p>
      ) : null}
      {factors === null && provider ? (
        <div className="stack card">
          <a className="button button--primary" href={providerSignInHref}>
            {t('signIn.oidc.button', { name: provider.name })}
          </a>
          {passwordOn ? <p className="muted signin__or">{t('signIn.oidc.or')}</p> : null}
        </div>
      ) : null}
      {factors === null && !passwordOn ? null : factors === null ? (
        <form onSubmit={submitPassword} className="stack card">
          <h2>{t('signIn.title')}</h2>
          <Field label={t('signIn.email')}>
            {(id) => (
              <input id={id} type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} required />
            )}
          </Field>
          <Field label={t('signIn.password')}>
            {(id) => (
              <input
                id={id}
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                required
              />
            )}
          </Field>
          <ErrorMessage error={first.error} />
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('signIn.continue')}
          </button>
        </form>
      ) : (
        <div className="stack card">
          <h2>{t('signIn.secondFactor')}</h2>
          {email ? <p className="muted">{email}</p> : null}
          {factors.includes('passkey') ? (
            <button type="button" className="button button--primary" onClick={usePasskey} disabled={busy}>
              {t('signIn.usePasskey')}
            </button>
          ) : null}
          {mode !== null ? (
            <form onSubmit={submitCode} className="stack">
              <Field
                label={mode === 'totp' ? t('signIn.code') : t('signIn.recoveryCode')}
                hint={mode === 'totp' ? t('signIn.codeHint') : undefined}
              >
                {(id, hint) => (
                  <input
                    id={id}
                    aria-describedby={hint}
                    value={code}
                    onChange={(e) => setCode(e.target.value)}
                    autoComplete="one-time-code"
                    inputMode={mode === 'totp' ? 'numeric' : 'text'}
                    required
                  />
                )}
              </Field>
              <button type="submit" className={factors.includes('passkey') ? 'button' : 'button button--primary'} disabled={busy}>
                {t('signIn.submit')}
              </button>
            </form>
          ) : null}
          <ErrorMessage error={second.error} />
          <div className="actions">
            {mode === 'recoveryCode' && factors.includes('totp') ? (
              <button type="button" className="button button--link" onClick={() => (setMode('totp'), setCode(''))}>
                {t('signIn.useCode')}
              </button>
            ) : mode !== 'recoveryCode' ? (
              <button type="button" className="button button--link" onClick={() => (setMode('recoveryCode'), setCode(''))}>
                {t('signIn.useRecoveryCode')}
              </button>
            ) : null}
            <button
              type="button"
              className="button button--link"
              onClick={() => {
                setFactors(null);
                setCode('');
                first.reset();
                second.reset();
                setNotice(null);
                if (params.size > 0) setParams({}, { replace: true });
              }}
            >
              {t('signIn.startOver')}
            </button>
          </div>
        </div>
      )}
    </main>
  );
}
