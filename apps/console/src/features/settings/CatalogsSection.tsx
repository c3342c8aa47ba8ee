import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ConsoleClient } from '@rewards/contract/console';
import type { CatalogOffering, CatalogSettings, PartnerSecret } from '@rewards/contract/console-clients';
import { getCatalogSettings } from '../../api/client-settings.ts';
import { formatDate, t } from '../../i18n/t.ts';
import { Field } from '../../ui/Form.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { Fact } from '../../ui/Fact.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { queryKeys } from '../../api/query-keys.ts';
import { useRevokePartner, useRotatePartnerSecret, useSaveCatalogs } from './mutations.ts';

const OFFERINGS = ['merchandise', 'experiences'] as const;
type Offering = (typeof OFFERINGS)[number];
const offeringName = (offering: Offering) =>
  offering === 'merchandise' ? t('clientSettings.catalogs.merchandise') : t('clientSettings.catalogs.experiences');

/**
 * A client's catalogs and their partners (issue 20 §3, part H, decision 065). Program managers and
 * owners change the catalogs, issue a partner a new secret and revoke a partner no catalog names (the
 * API client asks for a fresh second factor when the server wants one); a secret is shown here once,
 * from the reply, and kept nowhere.
 */
export function CatalogsSection({ client, canChange }: { client: ConsoleClient; canChange: boolean }) {
  const settings = useQuery({ queryKey: queryKeys.settings.catalogs(client.id), queryFn: () => getCatalogSettings(client.id) });
  const [editing, setEditing] = useState(false);
  const [rotating, setRotating] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [secrets, setSecrets] = useState<PartnerSecret[]>([]);
  const [message, setMessage] = useState('');
  const headingId = useId();
  const revoke = useRevokePartner(client.id);
  const rotate = useRotatePartnerSecret(client.id);
  const describe = (value: CatalogOffering | null) =>
    value ? t('clientSettings.catalogs.withPartner', { url: value.url, partner: value.partnerId }) : t('clientSettings.catalogs.none');
  return (
    <section className="section" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('clientSettings.catalogs.title')}</h3>
      <QueryView query={settings}>
        {(data) => (
          <>
            <dl className="facts">
              {OFFERINGS.map((offering) => (
                <Fact key={offering} label={offeringName(offering)}>
                  {describe(data[offering])}
                </Fact>
              ))}
              <Fact label={t('clientSettings.catalogs.partners')}>
                {data.partners.length === 0 ? (
                  t('clientSettings.catalogs.none')
                ) : (
                  <ul>
                    {data.partners.map((p) => {
                      const namedBy = OFFERINGS.filter((o) => data[o]?.partnerId === p.id);
                      return (
                        <li key={p.id}>
                          {p.id} (
                          {p.revokedAt
                            ? t('clientSettings.catalogs.revokedOn', { since: formatDate(p.createdAt), date: formatDate(p.revokedAt) })
                            : t('clientSettings.catalogs.since', { date: formatDate(p.createdAt) })}
                          {namedBy.length > 0
                            ? `; ${t('clientSettings.catalogs.namedBy', { offerings: namedBy.map(offeringName).join(', ') })}`
                            : ''}
                          )
                          {canChange && !p.revokedAt ? (
                            <>
                              {' '}
                              <button type="button" className="button button--small" onClick={() => setRotating(p.id)}>
                                {t('clientSettings.catalogs.rotate', { partner: p.id })}
                              </button>
                              {/* A partner a catalog names is not revocable yet: the server would refuse it. */}
                              {namedBy.length === 0 ? (
                                <>
                                  {' '}
                                  <button type="button" className="button button--small" onClick={() => setRevoking(p.id)}>
                                    {t('clientSettings.catalogs.revoke', { partner: p.id })}
                                  </button>
                                </>
                              ) : null}
                            </>
                          ) : null}
                        </li>
                      );
                    })}
                  </ul>
                )}
              </Fact>
            </dl>
            {secrets.map((s) => (
              <div key={s.partnerId} role="alert" className="notice">
                <p>{t('clientSettings.catalogs.secretOnce', { partner: s.partnerId })}</p>
                <p>
                  <code className="secret">{s.secret}</code>
                </p>
                <button
                  type="button"
                  className="button"
                  onClick={() => setSecrets((all) => all.filter((x) => x.partnerId !== s.partnerId))}
                >
                  {t('clientSettings.catalogs.dismiss')}
                </button>
              </div>
            ))}
            {canChange ? (
              <div className="settings-row">
                <button type="button" className="button" onClick={() => setEditing(true)}>
                  {t('clientSettings.catalogs.change')}
                </button>
                <span role="status">{message}</span>
              </div>
            ) : null}
            {editing ? (
              <CatalogsDialog
                client={client}
                current={data}
                onClose={() => setEditing(false)}
                onSaved={(changed, issued) => {
                  setMessage(changed ? t('clientSettings.catalogs.saved') : t('clientSettings.unchanged'));
                  setSecrets((all) => [...all, ...issued]);
                }}
              />
            ) : null}
            {revoking !== null ? (
              <ReasonDialog
                title={t('clientSettings.catalogs.revokeTitle', { partner: revoking })}
                intro={<p>{t('clientSettings.catalogs.revokeIntro')}</p>}
                submitLabel={t('clientSettings.catalogs.revokeSubmit')}
                ready
                onClose={() => setRevoking(null)}
                mutation={revoke}
                variables={(reason) => ({ partnerId: revoking, reason })}
                onDone={({ partnerId }) => {
                  setSecrets((all) => all.filter((x) => x.partnerId !== partnerId));
                  setMessage(t('clientSettings.catalogs.revoked', { partner: partnerId }));
                }}
              />
            ) : null}
            {rotating !== null ? (
              <ReasonDialog
                title={t('clientSettings.catalogs.rotateTitle', { partner: rotating })}
                intro={<p>{t('clientSettings.catalogs.rotateIntro')}</p>}
                submitLabel={t('clientSettings.catalogs.rotateSubmit')}
                ready
                onClose={() => setRotating(null)}
                mutation={rotate}
                variables={(reason) => ({ partnerId: rotating, reason })}
                onDone={({ partnerId, secret }) =>
                  setSecrets((all) => [...all.filter((x) => x.partnerId !== partnerId), { partnerId, secret }])
                }
              />
            ) : null}
          </>
        )}
      </QueryView>
    </section>
  );
}

function CatalogsDialog({
  client,
  current,
  onClose,
  onSaved,
}: {
  client: ConsoleClient;
  current: CatalogSettings;
  onClose: () => void;
  /** After the save (which has the settings read again): whether anything changed, and the secrets it issued (shown once). */
  onSaved: (changed: boolean, issued: PartnerSecret[]) => void;
}) {
  const mutation = useSaveCatalogs(client.id);
  const [values, setValues] = useState(() =>
    Object.fromEntries(OFFERINGS.map((o) => [o, { url: current[o]?.url ?? '', partnerId: current[o]?.partnerId ?? '' }])),
  );
  const set = (offering: Offering, key: 'url' | 'partnerId', value: string) =>
    setValues((all) => ({
      ...all,
      [offering]: { url: all[offering]?.url ?? '', partnerId: all[offering]?.partnerId ?? '', [key]: value },
    }));
  const wanted = (offering: Offering): CatalogOffering | null => {
    const value = values[offering];
    return value && value.url.trim() !== '' ? { url: value.url.trim(), partnerId: value.partnerId.trim() } : null;
  };
  return (
    <ReasonDialog
      title={t('clientSettings.catalogs.changeTitle', { client: client.name })}
      intro={<p>{t('clientSettings.catalogs.intro')}</p>}
      submitLabel={t('settings.save')}
      ready={OFFERINGS.every((o) => wanted(o) === null || wanted(o)?.partnerId !== '')}
      onClose={onClose}
      mutation={mutation}
      variables={(reason) => ({ merchandise: wanted('merchandise'), experiences: wanted('experiences'), reason })}
      onDone={(done) => onSaved(done.auditId !== null, done.secrets)}
    >
      {OFFERINGS.map((offering) => (
        <div key={offering} className="role-grid">
          <Field label={t('clientSettings.catalogs.url', { offering: offeringName(offering) })} hint={t('clientSettings.catalogs.urlHint')}>
            {(id, hint) => (
              <input
                id={id}
                aria-describedby={hint}
                value={values[offering]?.url ?? ''}
                onChange={(e) => set(offering, 'url', e.target.value)}
              />
            )}
          </Field>
          <Field label={t('clientSettings.catalogs.partner', { offering: offeringName(offering) })}>
            {(id) => (
              <input id={id} value={values[offering]?.partnerId ?? ''} onChange={(e) => set(offering, 'partnerId', e.target.value)} />
            )}
          </Field>
        </div>
      ))}
    </ReasonDialog>
  );
}
