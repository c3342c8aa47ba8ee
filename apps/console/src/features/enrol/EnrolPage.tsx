import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from 'react-router';
import type { EnrolmentPasswordReply, EnrolmentTotpReply, EnrolmentView } from '@rewards/contract/console';
import { confirmEnrolmentPasskey, confirmEnrolmentTotp, getEnrolment, setEnrolmentPassword } from '../../api/session.ts';
import { t } from '../../i18n/t.ts';
import { ErrorMessage, Field } from '../../ui/Form.tsx';
import { PasswordRulesList, staffPasswordResults } from '../../ui/PasswordRules.tsx';
import { RecoveryCodeList } from '../../ui/RecoveryCodeList.tsx';
import { TotpCodeField, TotpSecret } from '../../ui/TotpSetup.tsx';
import { roleName } from '../../ui/labels.ts';
import { queryKeys } from '../../api/query-keys.ts';

/**
 * Enrolment from the link /console/enrol#<token> (the token never leaves the page but in a
 * header): a password under the staff rules, then a second factor — a code of the
 * authenticator app (QR code and secret) or a passkey — then the recovery codes, shown once.
 */
export function EnrolPage() {
  const location = useLocation();
  const token = location.hash.replace(/^#/, '');
  const view = useQuery({
    queryKey: queryKeys.enrolment(token),
    queryFn: () => getEnrolment(token),
    enabled: token !== '',
    staleTime: Infinity,
  });
  const [secret, setSecret] = useState<EnrolmentPasswordReply | null>(null);
  const [done, setDone] = useState<EnrolmentTotpReply | null>(null);

  return (
    <main id="main" className="signin signin--wide">
      <h1>{t('enrol.title')}</h1>
      {token === '' ? (
        <p className="error" role="alert">
          {t('console.error.enrolmentInvalid')}
        </p>
      ) : view.isPending ? (
        <p className="loading">{t('common.loading')}</p>
      ) : view.isError ? (
        <div className="card stack">
          <ErrorMessage error={view.error} />
          <Link to="/sign-in">{t('enrol.toSignIn')}</Link>
        </div>
      ) : done ? (
        <RecoveryCodes reply={done} />
      ) : (
        <div className="card stack">
          <p>{t('enrol.for', { name: view.data.name, email: view.data.email })}</p>
          <p className="muted">
            {view.data.owner ? t('role.owner') : view.data.roles.map((r) => `${roleName(r.role)} · ${r.clientName}`).join(', ')}
          </p>
          {secret ? (
            <SecondFactorStep token={token} secret={secret} onDone={setDone} />
          ) : (
            <PasswordStep view={view.data} token={token} onSet={setSecret} onDone={setDone} />
          )}
        </div>
      )}
    </main>
  );
}

function PasswordStep({
  view,
  token,
  onSet,
  onDone,
}: {
  view: EnrolmentView;
  token: string;
  onSet: (s: EnrolmentPasswordReply) => void;
  onDone: (r: EnrolmentTotpReply) => void;
}) {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [mismatch, setMismatch] = useState(false);
  const [busy, setBusy] = useState(false);
  const results = staffPasswordResults(view.passwordRules, password, view.email);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setMismatch(password !== repeat);
    if (password !== repeat) return;
    setBusy(true);
    setError(null);
    try {
      onSet(await setEnrolmentPassword(token, password));
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  const passkeyNow = async () => {
    setBusy(true);
    setError(null);
    try {
      onDone(await confirmEnrolmentPasskey(token));
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="stack">
      <h2>{t('enrol.passwordStep')}</h2>
      {view.step === 'totp' ? <p className="notice">{t('enrol.passwordAgain')}</p> : null}
      <Field label={t('enrol.password')} hint={t('enrol.rulesIntro')}>
        {(id, hint) => (
          <input
            id={id}
            type="password"
            autoComplete="new-password"
            aria-describedby={`${hint} enrol-rules`}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
        )}
      </Field>
      <PasswordRulesList id="enrol-rules" results={results} />
      <Field label={t('enrol.repeat')}>
        {(id) => (
          <input id={id} type="password" autoComplete="new-password" value={repeat} onChange={(e) => setRepeat(e.target.value)} required />
        )}
      </Field>
      {mismatch ? (
        <p className="error" role="alert">
          {t('enrol.mismatch')}
        </p>
      ) : null}
      <ErrorMessage error={error} />
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={busy || !results.every((r) => r.met)}>
          {t('enrol.setPassword')}
        </button>
        {view.step === 'totp' ? (
          <button type="button" className="button" disabled={busy} onClick={() => void passkeyNow()}>
            {t('enrol.usePasskey')}
          </button>
        ) : null}
      </div>
    </form>
  );
}

function SecondFactorStep({
  token,
  secret,
  onDone,
}: {
  token: string;
  secret: EnrolmentPasswordReply;
  onDone: (r: EnrolmentTotpReply) => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<EnrolmentTotpReply>) => {
    setBusy(true);
    setError(null);
    try {
      onDone(await work());
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return (
    <div className="stack">
      <h2>{t('enrol.factorStep')}</h2>
      <p>{t('enrol.totpIntro')}</p>
      <TotpSecret secret={secret} />
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => confirmEnrolmentTotp(token, code));
        }}
      >
        <TotpCodeField code={code} onChange={setCode} />
        <ErrorMessage error={error} />
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('enrol.confirmCode')}
          </button>
          <button type="button" className="button" disabled={busy} onClick={() => void run(() => confirmEnrolmentPasskey(token))}>
            {t('enrol.usePasskey')}
          </button>
        </div>
      </form>
    </div>
  );
}

function RecoveryCodes({ reply }: { reply: EnrolmentTotpReply }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <div className="card stack">
      <h2>{t('enrol.codesTitle')}</h2>
      <p>{t('enrol.codesIntro')}</p>
      <RecoveryCodeList codes={reply.recoveryCodes} email={reply.me.email} label={t('enrol.codesTitle')} />
      <button
        type="button"
        className="button button--primary"
        onClick={() => {
          queryClient.setQueryData(queryKeys.me(), reply.me);
          navigate('/participants', { replace: true });
        }}
      >
        {t('enrol.continue')}
      </button>
    </div>
  );
}
