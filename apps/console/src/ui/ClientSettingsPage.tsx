import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { ConsoleClient } from '@rewards/contract/console';
import { useClients } from '../api/clients.ts';
import { useSession } from '../app/session.tsx';
import { t } from '../i18n/t.ts';
import { ErrorMessage } from './Form.tsx';
import { ClientPicker } from './ClientPicker.tsx';

export interface ClientSettingsPageProps {
  /** The page's title, also the breadcrumb's last step under Settings. */
  title: string;
  intro: string;
  /** Shown when the person holds no client the page is for. */
  noClient: string;
  /** The label of the client picker (shown only when there is more than one client to pick). */
  clientLabel: string;
  /** The clients the page shows, by the person's role there (the server refuses the others). */
  shows: (client: ConsoleClient, owner: boolean) => boolean;
  /**
   * The chosen client's part of the page; canChange: an owner or the client's program manager,
   * who may change a client's settings. Give it key={client.id}, so that nothing typed for one
   * client stays when another is picked.
   */
  children: (client: ConsoleClient, canChange: boolean) => ReactNode;
}

/**
 * The frame of a per-client page under Settings (API keys, webhooks): the breadcrumb, title and
 * introduction, then a picker of the clients the person may see there (kept in ?client=, so a
 * link can name one), then the chosen client's part.
 */
export function ClientSettingsPage({ title, intro, noClient, clientLabel, shows, children }: ClientSettingsPageProps) {
  const { me } = useSession();
  const clients = useClients();
  const [params, setParams] = useSearchParams();
  if (clients.isPending) return <p className="loading">{t('common.loading')}</p>;
  if (clients.isError) return <ErrorMessage error={clients.error} />;
  const shown = clients.data.filter((c) => shows(c, me.owner));
  const client = shown.find((c) => c.id === params.get('client')) ?? shown[0];
  return (
    <div className="stack">
      <p className="settings-breadcrumb">
        <Link to="/settings">{t('nav.settings')}</Link> › {title}
      </p>
      <h1>{title}</h1>
      <p className="muted">{intro}</p>
      {client === undefined ? (
        <p>{noClient}</p>
      ) : (
        <>
          <ClientPicker label={clientLabel} clients={shown} chosen={client} onChoose={(id) => setParams({ client: id })} row />
          {children(client, me.owner || client.role === 'program_manager')}
        </>
      )}
    </div>
  );
}
