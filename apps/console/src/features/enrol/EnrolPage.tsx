import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from 'react-router';
import type { EnrolmentPasswordReply, EnrolmentTotpReply, EnrolmentView } from '@rewards/contract/console';
import { getEnrolment } from '../../api/session.ts';
import { t } from '../../i18n/t.ts';
import { ErrorMessage, Field } from '../../ui/Form.tsx';
import { PasswordRulesList, staffPasswordResults } from '../../ui/PasswordRules.tsx';
import { RecoveryCodeList } from '../../ui/RecoveryCodeList.tsx';
import { TotpCodeField, TotpSecret } from '../../ui/TotpSetup.tsx';
import { roleName } from '../../ui/labels.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { QueryView } from '../../ui/QueryView.tsx';
import { useConfirmEnrolment, useSetEnrolmentPassword } from './mutations.ts';

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
      ) : done ? (
        // Shown once: nothing the enrolment's read does afterwards takes the codes away.
        <RecoveryCodes reply={done} />
      ) : (
        <QueryView
          query={view}
          failed={(error) => (
            <div className="card stack">
              <ErrorMessage error={error} />
              <Link to="/sign-in">{t('enrol.toSignIn')}</Link>
            </div>
          )}
        >
          {(enrolment) => (
            <div className="card stack">
              <p>{t('enrol.for', { name: enrolment.name, email: enrolment.email })}</p>
              <p className="muted">
                {enrolment.owner ? t('role.owner') : enrolment.roles.map((r) => `${roleName(r.role)} · ${r.clientName}`).join(', ')}
              </p>
              {secret ? (
                <SecondFactorStep token={token} secret={secret} onDone={setDone} />
              ) : (
                <PasswordStep view={enrolment} token={token} onSet={setSecret} onDone={setDone} />
              )}
            </div>
          )}
        </QueryView>
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
  const [mismatch, setMismatch] = useState(false);
  const setIt = useSetEnrolmentPassword(token);
  const confirm = useConfirmEnrolment(token);
  // Either write under way (or done: the page moves on) keeps both buttons waiting; the last one sent says why it failed.
  const busy = setIt.isPending || setIt.isSuccess || confirm.isPending || confirm.isSuccess;
  const error = setIt.error ?? confirm.error;
  const results = staffPasswordResults(view.passwordRules, password, view.email);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(password !== repeat);
    if (password !== repeat || busy) return;
    confirm.reset();
    setIt.mutate(password, { onSuccess: onSet });
  };
  const passkeyNow = () => {
    setIt.reset();
    confirm.mutate({ kind: 'passkey' }, { onSuccess: onDone });
  };

  return (
    <form onSubmit={submit} className="stack">
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
          <button type="button" className="button" disabled={busy} onClick={passkeyNow}>
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
  const confirm = useConfirmEnrolment(token);
  // Once confirmed the step stays busy: the recovery codes replace it.
  const busy = confirm.isPending || confirm.isSuccess;
  return (
    <div className="stack">
      <h2>{t('enrol.factorStep')}</h2>
      <p>{t('enrol.totpIntro')}</p>
      <TotpSecret secret={secret} />
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          confirm.mutate({ kind: 'totp', code }, { onSuccess: onDone });
        }}
      >
        <TotpCodeField code={code} onChange={setCode} />
        <ErrorMessage error={confirm.error} />
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('enrol.confirmCode')}
          </button>
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => confirm.mutate({ kind: 'passkey' }, { onSuccess: onDone })}
          >
            {t('enrol.usePasskey')}
          </button>
        </div>
      </form>
    </div>
  );
}

function RecoveryCodes({ reply }: { reply: EnrolmentTotpReply }) {
  const navigate = useNavigate();
  return (
    <div className="card stack">
      <h2>{t('enrol.codesTitle')}</h2>
      <p>{t('enrol.codesIntro')}</p>
      <RecoveryCodeList codes={reply.recoveryCodes} email={reply.me.email} label={t('enrol.codesTitle')} />
      <button
        type="button"
        className="button button--primary"
        // Who they are was cached with the reply (mutations.ts): the console opens signed in.
        onClick={() => navigate('/participants', { replace: true })}
      >
        {t('enrol.continue')}
      </button>
    </div>
  );
}
