import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { StaffAccount, StaffTotpSecretReply } from '@rewards/contract/console';
import { getSignInMethods } from '../../api/staff-oidc.ts';
import { useSession } from '../../app/session.tsx';
import { formatDateTime, t } from '../../i18n/t.ts';
import { Fact } from '../../ui/Fact.tsx';
import { ErrorMessage, Field } from '../../ui/Form.tsx';
import { PasswordRulesList, staffPasswordResults } from '../../ui/PasswordRules.tsx';
import { RecoveryCodeList } from '../../ui/RecoveryCodeList.tsx';
import { TotpCodeField, TotpSecret } from '../../ui/TotpSetup.tsx';
import { getAccount } from './account-api.ts';
import { useChangePassword, useConfirmTotp, useFactorChange, type FactorChange, type FactorResult } from './mutations.ts';
import { QueryView } from '../../ui/QueryView.tsx';
import { queryKeys } from '../../api/query-keys.ts';

/**
 * Your account (decision 070), for every signed-in staff member whatever their roles: the
 * password (unless the account signs in only through the installation's provider) and the
 * second factors — new recovery codes, passkeys added and removed, each after a step-up.
 */
export default function AccountPage() {
  const { me } = useSession();
  const account = useQuery({ queryKey: queryKeys.account(), queryFn: getAccount });
  return (
    <div className="stack account">
      <div>
        <h1>{t('account.title')}</h1>
        <p className="muted">{t('account.who', { name: me.name, email: me.email })}</p>
      </div>
      <QueryView query={account}>
        {(data) => (
          <>
            <PasswordSection account={data} />
            <SecondFactorsSection account={data} />
          </>
        )}
      </QueryView>
    </div>
  );
}

function PasswordSection({ account }: { account: StaffAccount }) {
  const methods = useQuery({ queryKey: queryKeys.signInMethods(), queryFn: getSignInMethods, staleTime: Infinity });
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const change = useChangePassword();
  // How many other sessions the last change ended (its answer), until another is sent.
  const done = change.data?.otherSessionsEnded ?? null;
  const results = staffPasswordResults(account.passwordRules, next, account.email);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(next !== repeat);
    if (next !== repeat || change.isPending) return;
    change.mutate(
      { current, next },
      {
        onSuccess: () => {
          setCurrent('');
          setNext('');
          setRepeat('');
        },
      },
    );
  };

  return (
    <section className="card stack" aria-labelledby="account-password">
      <h2 id="account-password">{t('account.password.title')}</h2>
      {!account.password ? (
        <p>{t('account.password.provider', { name: methods.data?.provider?.name ?? t('stepUp.yourOrganisation') })}</p>
      ) : (
        <form onSubmit={submit} className="stack account__form">
          <Field label={t('account.password.current')}>
            {(id) => (
              <input
                id={id}
                type="password"
                autoComplete="current-password"
                value={current}
                onChange={(e) => setCurrent(e.target.value)}
                required
              />
            )}
          </Field>
          <Field label={t('account.password.new')} hint={t('enrol.rulesIntro')}>
            {(id, hint) => (
              <input
                id={id}
                type="password"
                autoComplete="new-password"
                aria-describedby={`${hint} account-rules`}
                value={next}
                onChange={(e) => setNext(e.target.value)}
                required
              />
            )}
          </Field>
          <PasswordRulesList id="account-rules" results={results} />
          <Field label={t('account.password.repeat')}>
            {(id) => (
              <input
                id={id}
                type="password"
                autoComplete="new-password"
                value={repeat}
                onChange={(e) => setRepeat(e.target.value)}
                required
              />
            )}
          </Field>
          {mismatch ? (
            <p className="error" role="alert">
              {t('enrol.mismatch')}
            </p>
          ) : null}
          <ErrorMessage error={change.error} />
          <div className="actions">
            <button type="submit" className="button button--primary" disabled={change.isPending || !results.every((r) => r.met)}>
              {t('account.password.submit')}
            </button>
          </div>
          <p role="status" className={done === null ? undefined : 'notice'}>
            {done === null ? '' : done === 0 ? t('account.password.changedAlone') : t('account.password.changed', { count: done })}
          </p>
        </form>
      )}
    </section>
  );
}

function SecondFactorsSection({ account }: { account: StaffAccount }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  const [totpSecret, setTotpSecret] = useState<StaffTotpSecretReply | null>(null);
  const [message, setMessage] = useState('');
  const factor = useFactorChange();
  const busy = factor.isPending;
  // Removing the only passkey without an authenticator app would lock the person out: the server refuses it, so no button offers it.
  const removable = account.totp || account.passkeys.length > 1;

  const run = (what: FactorChange, said: string, then?: (result: FactorResult) => void) => {
    setMessage('');
    factor.mutate(what, {
      onSuccess: (result) => {
        then?.(result);
        setMessage(said);
      },
    });
  };

  return (
    <section className="card stack" aria-labelledby="account-factors">
      <h2 id="account-factors">{t('account.factors.title')}</h2>
      <p className="muted">{t('account.factors.intro')}</p>
      <dl className="facts">
        <Fact label={t('account.factors.totp')}>{account.totp ? t('account.factors.totpYes') : t('account.factors.totpNo')}</Fact>
        <Fact label={t('account.factors.codesLeft')}>{t('account.factors.codesCount', { count: account.recoveryCodesLeft })}</Fact>
      </dl>

      {account.totp ? null : totpSecret ? (
        <TotpSetup
          secret={totpSecret}
          onDone={() => {
            setTotpSecret(null);
            setMessage(t('account.totp.done'));
          }}
          onCancel={() => setTotpSecret(null)}
        />
      ) : (
        <div className="actions">
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => run({ kind: 'newTotpSecret' }, '', (result) => setTotpSecret(result.totpSecret ?? null))}
          >
            {t('account.totp.add')}
          </button>
        </div>
      )}

      <h3>{t('account.passkeys.title')}</h3>
      {account.passkeys.length === 0 ? (
        <p>{t('account.passkeys.none')}</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t('account.passkeys.passkey')}</th>
                <th scope="col">{t('account.passkeys.added')}</th>
                <th scope="col">{t('account.passkeys.lastUsed')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('account.passkeys.remove')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {account.passkeys.map((passkey, index) => (
                <tr key={passkey.id}>
                  <td>{t('account.passkeys.name', { n: index + 1 })}</td>
                  <td>{formatDateTime(passkey.createdAt)}</td>
                  <td>{passkey.lastUsedAt ? formatDateTime(passkey.lastUsedAt) : t('common.never')}</td>
                  <td>
                    {removable ? (
                      <button
                        type="button"
                        className="button button--small"
                        disabled={busy}
                        aria-label={t('account.passkeys.removeOf', { n: index + 1, date: formatDateTime(passkey.createdAt) })}
                        onClick={() => run({ kind: 'removePasskey', passkeyId: passkey.id }, t('account.passkeys.removedNow'))}
                      >
                        {t('account.passkeys.remove')}
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {account.passkeys.length > 0 && !removable ? <p className="muted">{t('account.passkeys.lastNote')}</p> : null}
      <div className="actions">
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={() => run({ kind: 'addPasskey' }, t('account.passkeys.addedNow'))}
        >
          {t('account.passkeys.add')}
        </button>
      </div>

      <h3>{t('account.codes.title')}</h3>
      {codes ? (
        <NewCodes email={account.email} codes={codes} onSaved={() => setCodes(null)} />
      ) : (
        <>
          <p>{t('account.codes.intro')}</p>
          <div className="actions">
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => run({ kind: 'renewCodes' }, '', (result) => setCodes(result.recoveryCodes ?? null))}
            >
              {t('account.codes.renew')}
            </button>
          </div>
        </>
      )}
      <ErrorMessage error={factor.error} />
      <p role="status" className={message ? 'notice' : undefined}>
        {message}
      </p>
    </section>
  );
}

/** The new codes, this once (as enrolment shows them): copy, download, then gone from the page. */
function NewCodes({ email, codes, onSaved }: { email: string; codes: string[]; onSaved: () => void }) {
  return (
    <div className="stack account__codes">
      <p>
        <strong>{t('account.codes.shownOnce')}.</strong> {t('account.codes.shownIntro')}
      </p>
      <RecoveryCodeList codes={codes} email={email} label={t('account.codes.shownOnce')} />
      <div className="actions">
        <button type="button" className="button button--primary" onClick={onSaved}>
          {t('account.codes.saved')}
        </button>
      </div>
    </div>
  );
}

/** An authenticator app for an account without one: the QR code and secret, then a code of it confirms (as enrolment does). */
function TotpSetup({
  secret,
  onDone,
  onCancel,
}: {
  secret: StaffTotpSecretReply;
  /** After the app is confirmed (the account, now with it, cached). */
  onDone: () => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  const confirm = useConfirmTotp();
  // Once confirmed the form stays busy: it is about to go.
  const busy = confirm.isPending || confirm.isSuccess;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    confirm.mutate({ sealed: secret.sealed, code }, { onSuccess: onDone });
  };
  return (
    <form className="stack" onSubmit={submit}>
      <p>{t('account.totp.intro')}</p>
      <TotpSecret secret={secret} />
      <TotpCodeField code={code} onChange={setCode} />
      <ErrorMessage error={confirm.error} />
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {t('enrol.confirmCode')}
        </button>
        <button type="button" className="button" disabled={busy} onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
