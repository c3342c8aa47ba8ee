import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ConsoleClient } from '@rewards/contract/console';
import { getSettings } from '../../api/participants.ts';
import { useSession } from '../../app/session.tsx';
import { formatNumber, t } from '../../i18n/t.ts';
import { ErrorMessage, NumberField } from '../../ui/Form.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { useClients } from '../../api/clients.ts';
import { ExpirySettingsSection } from './ExpirySettingsSection.tsx';
import { BrandingSection } from './BrandingSection.tsx';
import { LocalesSection } from './LocalesSection.tsx';
import { ProgramSection } from './ProgramSection.tsx';
import { CatalogsSection } from './CatalogsSection.tsx';
import { SsoSection } from './SsoSection.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { queryKeys } from '../../api/query-keys.ts';
import { useSaveLimits } from './mutations.ts';

/**
 * Client settings: the support agents' daily adjustment limit and the points expiry. Program
 * managers (and owners) change them; support agents and auditors read them (issue 19).
 */
export default function SettingsPage() {
  const { me } = useSession();
  const clients = useClients();
  if (clients.isPending) return <p className="loading">{t('common.loading')}</p>;
  if (clients.isError) return <ErrorMessage error={clients.error} />;
  return (
    <div className="stack">
      <h1>{t('settings.title')}</h1>
      {/* Issue 29 §1: the keys of the program API, a page of their own (features/api-keys). */}
      <p>
        <Link to="/settings/api-keys">{t('apiKeys.settingsLink')}</Link>
      </p>
      {/* Issue 29 §3: webhooks, a page of their own (features/webhooks), for owners and program managers. */}
      {me.owner || clients.data.some((c) => c.role === 'program_manager') ? (
        <p>
          <Link to="/settings/webhooks">{t('webhooks.settingsLink')}</Link>
        </p>
      ) : null}
      {clients.data.length === 0 ? (
        <p>{t('error.forbidden')}</p>
      ) : (
        clients.data.map((c) => <ClientSettings key={c.id} client={c} canChange={me.owner || c.role === 'program_manager'} />)
      )}
    </div>
  );
}

function ClientSettings({ client, canChange }: { client: ConsoleClient; canChange: boolean }) {
  const { me } = useSession();
  const settings = useQuery({ queryKey: queryKeys.settings.limits(client.id), queryFn: () => getSettings(client.id) });
  const save = useSaveLimits(client.id);
  const [editing, setEditing] = useState(false);
  const [limit, setLimit] = useState('');
  const [message, setMessage] = useState('');
  const value = Number.parseInt(limit, 10);
  return (
    <section className="section" aria-label={client.name}>
      <h2>{client.name}</h2>
      {canChange ? null : <p className="muted">{t('settings.readOnly')}</p>}
      <QueryView query={settings}>
        {(data) => (
          <div className="settings-row">
            <p>
              {t('settings.limit')}: <strong>{formatNumber(data.agentDailyAdjustmentLimit)}</strong>
            </p>
            {canChange ? (
              <>
                <button
                  type="button"
                  className="button"
                  onClick={() => {
                    setLimit(String(data.agentDailyAdjustmentLimit));
                    setEditing(true);
                  }}
                >
                  {t('settings.change')}
                </button>
                <span role="status">{message}</span>
              </>
            ) : null}
          </div>
        )}
      </QueryView>
      <BrandingSection client={client} canChange={canChange} />
      <LocalesSection client={client} canChange={canChange} />
      <ProgramSection client={client} canChange={canChange} />
      <CatalogsSection client={client} canChange={canChange} />
      {/* Only owners change single sign-on (the server fetches the address they give). */}
      <SsoSection client={client} canChange={me.owner} />
      <ExpirySettingsSection client={client} canChange={canChange} />
      {editing ? (
        <ReasonDialog
          title={t('settings.changeTitle', { client: client.name })}
          intro={<p>{t('settings.limitHint')}</p>}
          submitLabel={t('settings.save')}
          ready={Number.isInteger(value) && value >= 0}
          onClose={() => setEditing(false)}
          mutation={save}
          variables={(reason) => ({ agentDailyAdjustmentLimit: value, reason })}
          onDone={() => setMessage(t('settings.saved'))}
        >
          <NumberField label={t('settings.limit')} min={0} value={limit} onChange={setLimit} />
        </ReasonDialog>
      ) : null}
    </section>
  );
}
