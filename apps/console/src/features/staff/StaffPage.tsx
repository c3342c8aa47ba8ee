import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { STAFF_ROLES, type StaffRole } from '@rewards/contract/console';
import type { StaffMember } from '@rewards/contract/console-staff';
import { listStaff } from '../../api/staff.ts';
import { useSession } from '../../app/session.tsx';
import { formatDateTime, t } from '../../i18n/t.ts';
import { columnHelper, DataTable, type Columns } from '../../ui/DataTable.tsx';
import { Field } from '../../ui/Form.tsx';
import { roleName } from '../../ui/labels.ts';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { useClients } from '../../api/clients.ts';
import { QueryView } from '../../ui/QueryView.tsx';
import { queryKeys } from '../../api/query-keys.ts';
import { useInvite, useSetRoles, useStaffAction } from './mutations.ts';

type Dialog = { kind: 'invite' } | { kind: 'roles' | 'disable' | 'enable' | 'reset'; member: StaffMember };
const sc = columnHelper<StaffMember>();

/** Staff (owners only): who has access to what, invitations by mail, role changes, disable, enable, reset — each with a reason. */
export default function StaffPage() {
  const { me } = useSession();
  const staff = useQuery({ queryKey: queryKeys.staff(), queryFn: listStaff, enabled: me.owner });
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [message, setMessage] = useState('');
  const action = useStaffAction();

  const columns = useMemo<Columns<StaffMember>>(
    () => [
      sc.accessor('name', { header: t('staff.name') }),
      sc.accessor('email', { header: t('staff.email') }),
      sc.accessor((m) => (m.owner ? t('role.owner') : m.roles.map((r) => `${roleName(r.role)} · ${r.clientName}`).join(', ') || '—'), {
        id: 'roles',
        header: t('staff.roles'),
      }),
      sc.accessor('status', {
        header: t('staff.status'),
        cell: (i) => <span className={`badge badge--${i.getValue()}`}>{t(`staff.status.${i.getValue()}` as 'staff.status.active')}</span>,
      }),
      sc.accessor((m) => m.secondFactors.join(', '), { id: 'factors', header: t('staff.factors') }),
      sc.accessor('lastSignInAt', { header: t('staff.lastSignIn'), cell: (i) => formatDateTime(i.getValue()) }),
      sc.display({
        id: 'actions',
        header: () => <span className="visually-hidden">{t('staff.actions')}</span>,
        cell: (i) => {
          const m = i.row.original;
          // The server refuses an owner disabling or resetting themselves: no button that can only fail.
          const self = m.email === me.email;
          return (
            <div className="row-actions">
              <button
                type="button"
                className="button button--small"
                onClick={() => setDialog({ kind: 'roles', member: m })}
                aria-label={t('staff.editRolesOf', { name: m.name })}
              >
                {t('staff.editRoles')}
              </button>
              {self ? null : m.status === 'disabled' ? (
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => setDialog({ kind: 'enable', member: m })}
                  aria-label={t('staff.enableOf', { name: m.name })}
                >
                  {t('staff.enable')}
                </button>
              ) : (
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => setDialog({ kind: 'disable', member: m })}
                  aria-label={t('staff.disableOf', { name: m.name })}
                >
                  {t('staff.disable')}
                </button>
              )}
              {self ? null : (
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => setDialog({ kind: 'reset', member: m })}
                  aria-label={t('staff.resetOf', { name: m.name })}
                >
                  {t('staff.reset')}
                </button>
              )}
            </div>
          );
        },
      }),
    ],
    [me.email],
  );

  if (!me.owner) return <p>{t('error.forbidden')}</p>;
  // The member acted on, its kind narrowed once for the dialog's callbacks.
  const acting =
    dialog && (dialog.kind === 'disable' || dialog.kind === 'enable' || dialog.kind === 'reset') ? { ...dialog, kind: dialog.kind } : null;
  return (
    <div className="stack">
      <div className="page-head">
        <h1>{t('staff.title')}</h1>
        <button type="button" className="button button--primary" onClick={() => setDialog({ kind: 'invite' })}>
          {t('staff.invite')}
        </button>
      </div>
      <p role="status" className={message ? 'notice' : 'visually-hidden'}>
        {message}
      </p>
      <QueryView query={staff}>{(data) => <DataTable columns={columns} rows={data} caption={t('staff.title')} />}</QueryView>
      {dialog?.kind === 'invite' ? <InviteDialog onClose={() => setDialog(null)} onDone={setMessage} /> : null}
      {dialog?.kind === 'roles' ? <RolesDialog member={dialog.member} onClose={() => setDialog(null)} onDone={setMessage} /> : null}
      {acting ? (
        <ReasonDialog
          title={t(`staff.${acting.kind}Title`, { name: acting.member.name })}
          intro={<p>{t(`staff.${acting.kind}Intro`, { name: acting.member.name, email: acting.member.email })}</p>}
          submitLabel={t(`staff.${acting.kind}`)}
          danger={acting.kind !== 'enable'}
          onClose={() => setDialog(null)}
          mutation={action}
          variables={(reason) => ({ action: acting.kind, staffId: acting.member.id, reason })}
          onDone={() => setMessage(t(`staff.${acting.kind}Done`, { name: acting.member.name }))}
        />
      ) : null}
    </div>
  );
}

type Grants = Record<string, StaffRole | ''>;

/** One select per client: no role, or one of the three. */
function RoleGrid({ grants, onChange }: { grants: Grants; onChange: (g: Grants) => void }) {
  const clients = useClients();
  if (clients.isPending) return <p className="loading">{t('common.loading')}</p>;
  return (
    <fieldset className="role-grid">
      <legend>{t('staff.rolesPerClient')}</legend>
      {clients.data?.map((c) => (
        <Field key={c.id} label={c.name}>
          {(id) => (
            <select id={id} value={grants[c.id] ?? ''} onChange={(e) => onChange({ ...grants, [c.id]: e.target.value as StaffRole | '' })}>
              <option value="">{t('staff.noRole')}</option>
              {STAFF_ROLES.map((role) => (
                <option key={role} value={role}>
                  {roleName(role)}
                </option>
              ))}
            </select>
          )}
        </Field>
      ))}
    </fieldset>
  );
}

const toRoles = (grants: Grants) => Object.entries(grants).flatMap(([clientId, role]) => (role ? [{ clientId, role }] : []));

function InviteDialog({ onClose, onDone }: { onClose: () => void; onDone: (text: string) => void }) {
  const mutation = useInvite();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [owner, setOwner] = useState(false);
  const [grants, setGrants] = useState<Grants>({});
  return (
    <ReasonDialog
      title={t('staff.inviteTitle')}
      intro={<p>{t('staff.inviteIntro')}</p>}
      submitLabel={t('staff.inviteSubmit')}
      onClose={onClose}
      ready={email.trim().length >= 3 && name.trim().length > 0 && (owner || toRoles(grants).length > 0)}
      mutation={mutation}
      variables={(reason) => ({ email: email.trim(), name: name.trim(), owner, roles: owner ? [] : toRoles(grants), reason })}
      onDone={() => onDone(t('staff.invited', { email: email.trim() }))}
    >
      <div className="grid2">
        <Field label={t('staff.email')}>
          {(id) => <input id={id} type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />}
        </Field>
        <Field label={t('staff.name')}>{(id) => <input id={id} value={name} onChange={(e) => setName(e.target.value)} required />}</Field>
      </div>
      <label className="check">
        <input type="checkbox" checked={owner} onChange={(e) => setOwner(e.target.checked)} /> {t('staff.makeOwner')}
      </label>
      {owner ? null : <RoleGrid grants={grants} onChange={setGrants} />}
    </ReasonDialog>
  );
}

function RolesDialog({ member, onClose, onDone }: { member: StaffMember; onClose: () => void; onDone: (text: string) => void }) {
  const mutation = useSetRoles();
  const [grants, setGrants] = useState<Grants>(() => Object.fromEntries(member.roles.map((r) => [r.clientId, r.role])));
  return (
    <ReasonDialog
      title={t('staff.rolesTitle', { name: member.name })}
      submitLabel={t('staff.saveRoles')}
      onClose={onClose}
      mutation={mutation}
      variables={(reason) => ({ staffId: member.id, roles: toRoles(grants), reason })}
      onDone={() => onDone(t('staff.rolesDone', { name: member.name }))}
    >
      <RoleGrid grants={grants} onChange={setGrants} />
    </ReasonDialog>
  );
}
