import { useState } from 'react';
import type { SsoLogoutType, SsoType } from '@rewards/contract';
import type { ConsoleClient } from '@rewards/contract/console';
import type { SsoSettings } from '@rewards/contract/console-clients';
import { getSsoSettings } from '../../api/client-settings.ts';
import { t } from '../../i18n/t.ts';
import { Field } from '../../ui/Form.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { Fact } from '../../ui/Fact.tsx';
import { SettingsSection, type ChangeDialogProps } from './SettingsSection.tsx';
import { queryKeys } from '../../api/query-keys.ts';
import { useSaveSso } from './mutations.ts';

/**
 * A client's single sign-on (issue 20 §3, part H, decision 065): program managers and owners turn
 * it on (the server reads the provider's discovery document first, as `rewards clients sso` does)
 * or off, with a reason. The secret is write-only: the page only says whether one is stored.
 */
export function SsoSection({ client, canChange }: { client: ConsoleClient; canChange: boolean }) {
  const none = t('clientSettings.sso.none');
  return (
    <SettingsSection
      title={t('clientSettings.sso.title')}
      queryKey={queryKeys.settings.sso(client.id)}
      load={() => getSsoSettings(client.id)}
      canChange={canChange}
      changeLabel={t('clientSettings.sso.change')}
      savedText={t('clientSettings.sso.saved')}
      shown={(data) => (
        <>
          <dl className="facts">
            <Fact label={t('clientSettings.sso.state')}>{data.enabled ? t('clientSettings.sso.on') : t('clientSettings.sso.off')}</Fact>
            <Fact label={t('clientSettings.sso.issuer')}>{data.issuer ?? none}</Fact>
            <Fact label={t('clientSettings.sso.oidcClientId')}>{data.oidcClientId ?? none}</Fact>
            <Fact label={t('clientSettings.sso.secret')}>{data.secretStored ? t('clientSettings.sso.secretStored') : none}</Fact>
            <Fact label={t('clientSettings.sso.claim')}>{data.claim}</Fact>
            <Fact label={t('clientSettings.sso.scopes')}>{data.scopes}</Fact>
            <Fact label={t('clientSettings.sso.ssoType')}>{data.ssoType}</Fact>
            <Fact label={t('clientSettings.sso.ssoLogoutType')}>{data.ssoLogoutType}</Fact>
            <Fact label={t('clientSettings.sso.siteName')}>{data.siteName || none}</Fact>
            <Fact label={t('clientSettings.sso.siteUrl')}>{data.siteUrl || none}</Fact>
            <Fact label={t('clientSettings.sso.redirectUris')}>{data.redirectUris.join(' ')}</Fact>
          </dl>
        </>
      )}
      dialog={(props) => <SsoDialog client={client} {...props} />}
    />
  );
}

// Type-checked against the contract; the root package is not pulled into the console's bundle for two lists.
const SIGN_IN_TYPES: readonly SsoType[] = ['login_and_sso', 'sso_only'];
const LOGOUT_TYPES: readonly SsoLogoutType[] = ['login', 'sso'];

function SsoDialog({ client, current, onClose, onSaved }: ChangeDialogProps<SsoSettings> & { client: ConsoleClient }) {
  const [enabled, setEnabled] = useState(current.enabled);
  const [issuer, setIssuer] = useState(current.issuer ?? '');
  const [oidcClientId, setOidcClientId] = useState(current.oidcClientId ?? '');
  const [secret, setSecret] = useState('');
  const [claim, setClaim] = useState(current.claim);
  const [scopes, setScopes] = useState(current.scopes);
  const [ssoType, setSsoType] = useState<string>(current.ssoType === 'login_only' ? 'login_and_sso' : current.ssoType);
  const [logoutType, setLogoutType] = useState<string>(current.ssoLogoutType);
  const [siteName, setSiteName] = useState(current.siteName);
  const [siteUrl, setSiteUrl] = useState(current.siteUrl);
  const mutation = useSaveSso(client.id);
  return (
    <ReasonDialog
      title={t('clientSettings.sso.changeTitle', { client: client.name })}
      intro={<p>{t('clientSettings.sso.intro')}</p>}
      submitLabel={t('settings.save')}
      ready={!enabled || (issuer.trim() !== '' && oidcClientId.trim() !== '' && (current.secretStored || secret !== ''))}
      onClose={onClose}
      mutation={mutation}
      variables={(reason) =>
        enabled
          ? {
              enabled,
              issuer,
              oidcClientId,
              ...(secret === '' ? {} : { clientSecret: secret }),
              claim,
              scopes,
              ssoType,
              ssoLogoutType: logoutType,
              siteName,
              siteUrl,
              reason,
            }
          : { enabled, reason }
      }
      onDone={(done) => onSaved(done.auditId !== null)}
    >
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> {t('clientSettings.sso.enable')}
      </label>
      {enabled ? (
        <>
          <Field label={t('clientSettings.sso.issuer')}>
            {(id) => <input id={id} type="url" value={issuer} onChange={(e) => setIssuer(e.target.value)} required />}
          </Field>
          <Field label={t('clientSettings.sso.oidcClientId')}>
            {(id) => <input id={id} value={oidcClientId} onChange={(e) => setOidcClientId(e.target.value)} required />}
          </Field>
          <Field label={t('clientSettings.sso.secret')} hint={current.secretStored ? t('clientSettings.sso.secretHint') : undefined}>
            {(id, hint) => (
              <input
                id={id}
                aria-describedby={hint}
                type="password"
                autoComplete="off"
                value={secret}
                onChange={(e) => setSecret(e.target.value)}
                required={!current.secretStored}
              />
            )}
          </Field>
          <div className="role-grid">
            <Field label={t('clientSettings.sso.claim')}>
              {(id) => <input id={id} value={claim} onChange={(e) => setClaim(e.target.value)} />}
            </Field>
            <Field label={t('clientSettings.sso.scopes')}>
              {(id) => <input id={id} value={scopes} onChange={(e) => setScopes(e.target.value)} />}
            </Field>
            <Field label={t('clientSettings.sso.ssoType')}>
              {(id) => (
                <select id={id} value={ssoType} onChange={(e) => setSsoType(e.target.value)}>
                  {SIGN_IN_TYPES.map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t('clientSettings.sso.ssoLogoutType')}>
              {(id) => (
                <select id={id} value={logoutType} onChange={(e) => setLogoutType(e.target.value)}>
                  {LOGOUT_TYPES.map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <Field label={t('clientSettings.sso.siteName')}>
            {(id) => <input id={id} value={siteName} onChange={(e) => setSiteName(e.target.value)} />}
          </Field>
          <Field label={t('clientSettings.sso.siteUrl')}>
            {(id) => <input id={id} type="url" value={siteUrl} onChange={(e) => setSiteUrl(e.target.value)} />}
          </Field>
        </>
      ) : null}
    </ReasonDialog>
  );
}
