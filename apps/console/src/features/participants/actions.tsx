import { useState } from 'react';
import type { ConsoleParticipant, LaunchAsReply } from '@rewards/contract/console-participants';
import { formatNumber, formatSigned, t } from '../../i18n/t.ts';
import { Field, NumberField } from '../../ui/Form.tsx';
import { statusName } from '../../ui/labels.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { KEEP_OPEN, ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { useAdjust, useCorrectDetails, useLaunchAs, useResendMail, useSetStatus, useUnlockOrEndSessions } from './mutations.ts';

export type ActionName = 'launchAs' | 'adjust' | 'status' | 'unlock' | 'endSessions' | 'resendMail' | 'details';

interface ActionProps {
  participant: ConsoleParticipant;
  onClose: () => void;
  /** Called after the server took the change (and the page was read again): say so. */
  onDone: (message: string) => void;
}

/** What a status may become: "pending" means "not yet activated", so an activated account never goes back (decision 076). */
const statusesFrom = (current: string) => (current === 'pending' ? ['pending', 'active', 'inactive'] : ['active', 'inactive']);

/** A key for the adjustment made once per opened form (crypto.randomUUID where the page is a secure context). */
function newRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function ActionDialog({ action, ...props }: ActionProps & { action: ActionName }) {
  switch (action) {
    case 'launchAs':
      return <LaunchAsDialog {...props} />;
    case 'adjust':
      return <AdjustDialog {...props} />;
    case 'status':
      return <StatusDialog {...props} />;
    case 'unlock':
      return <SimpleDialog {...props} kind="unlock" />;
    case 'endSessions':
      return <SimpleDialog {...props} kind="endSessions" />;
    case 'resendMail':
      return <ResendDialog {...props} />;
    case 'details':
      return <DetailsDialog {...props} />;
  }
}

function LaunchAsDialog({ participant, onClose, onDone }: ActionProps) {
  const { client, identity } = participant;
  const [opened, setOpened] = useState<LaunchAsReply | null>(null);
  const mutation = useLaunchAs(client.id, identity.id);
  if (opened) {
    // The tab opened from the click; should a pop-up blocker have stopped it, the link is here.
    return (
      <Dialog title={t('launchAs.title')} onClose={onClose}>
        <div className="stack">
          <p role="status">{t('launchAs.opened')}</p>
          <div className="actions">
            <a className="button" href={opened.url} target="_blank" rel="noopener noreferrer" onClick={onClose}>
              {t('launchAs.openAgain')}
            </a>
            <button type="button" className="button button--primary" onClick={onClose} data-autofocus>
              {t('common.close')}
            </button>
          </div>
        </div>
      </Dialog>
    );
  }
  return (
    <ReasonDialog
      title={t('launchAs.title')}
      intro={<p>{t('launchAs.intro', { name: `${identity.firstName} ${identity.lastName}`, client: client.name })}</p>}
      submitLabel={t('launchAs.submit')}
      onClose={onClose}
      mutation={mutation}
      variables={(reason) => reason}
      onDone={(reply) => {
        window.open(reply.url, '_blank', 'noopener,noreferrer');
        setOpened(reply);
        onDone(t('launchAs.done'));
        return KEEP_OPEN;
      }}
    />
  );
}

function AdjustDialog({ participant, onClose, onDone }: ActionProps) {
  const { client, identity, balance } = participant;
  // One key per opened form: a double click, or a retry after a step-up, posts once.
  const [requestId] = useState(newRequestId);
  const mutation = useAdjust(client.id, identity.id);
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit');
  const [points, setPoints] = useState('');
  const [text, setText] = useState('');
  const amount = Number.parseInt(points, 10);
  const valid = Number.isInteger(amount) && amount > 0 && amount <= 10_000_000 && text.trim().length > 0;
  const signed = direction === 'credit' ? amount : -amount;
  return (
    <ReasonDialog
      title={t('adjust.title')}
      intro={<p>{t('adjust.intro', { balance: formatNumber(balance), currency: client.currencyName })}</p>}
      submitLabel={valid ? t('adjust.submit', { points: formatSigned(signed) }) : t('adjust.submitEmpty')}
      onClose={onClose}
      ready={valid}
      reasonLabel={t('adjust.note')}
      reasonHint={t('adjust.noteHint')}
      mutation={mutation}
      variables={(reason) => ({
        points: signed,
        participantText: text.trim(),
        // The form's reason is the entry's internal note: staff and auditors read it, the participant never does.
        internalNote: reason,
        requestId,
      })}
      onDone={(reply) => onDone(t('adjust.done', { points: formatSigned(signed), balance: formatNumber(reply.balance) }))}
    >
      <fieldset className="segmented">
        <legend>{t('adjust.direction')}</legend>
        <label>
          <input type="radio" name="direction" checked={direction === 'credit'} onChange={() => setDirection('credit')} />{' '}
          {t('adjust.credit')}
        </label>
        <label>
          <input type="radio" name="direction" checked={direction === 'debit'} onChange={() => setDirection('debit')} /> {t('adjust.debit')}
        </label>
      </fieldset>
      <NumberField label={t('adjust.points')} min={1} inputMode="numeric" value={points} onChange={setPoints} />
      <Field label={t('adjust.text')} hint={t('adjust.textHint')}>
        {(id, hint) => (
          <input id={id} aria-describedby={hint} value={text} maxLength={200} onChange={(e) => setText(e.target.value)} required />
        )}
      </Field>
      <p className="preview" aria-live="polite">
        <span className="muted">{t('adjust.preview')}</span> {t('adjust.participantReads', { text: text.trim() || '…' })}
      </p>
    </ReasonDialog>
  );
}

function StatusDialog({ participant, onClose, onDone }: ActionProps) {
  const { client, identity } = participant;
  const [status, setStatusValue] = useState(identity.status);
  const mutation = useSetStatus(client.id, identity.id);
  return (
    <ReasonDialog
      title={t('status.title')}
      submitLabel={t('status.submit')}
      onClose={onClose}
      ready={status !== identity.status}
      mutation={mutation}
      variables={(reason) => ({ status, reason })}
      onDone={() => onDone(t('status.done', { status: statusName(status) }))}
    >
      <Field label={t('participant.status')}>
        {(id) => (
          <select id={id} value={status} onChange={(e) => setStatusValue(e.target.value)}>
            {statusesFrom(identity.status).map((s) => (
              <option key={s} value={s}>
                {statusName(s)}
              </option>
            ))}
          </select>
        )}
      </Field>
    </ReasonDialog>
  );
}

function SimpleDialog({ participant, onClose, onDone, kind }: ActionProps & { kind: 'unlock' | 'endSessions' }) {
  const { client, identity } = participant;
  const mutation = useUnlockOrEndSessions(client.id, identity.id);
  return (
    <ReasonDialog
      title={kind === 'unlock' ? t('unlock.title') : t('endSessions.title')}
      intro={<p>{kind === 'unlock' ? t('unlock.intro') : t('endSessions.intro', { count: participant.sessions.length })}</p>}
      submitLabel={kind === 'unlock' ? t('unlock.submit') : t('endSessions.submit')}
      onClose={onClose}
      danger={kind === 'endSessions'}
      mutation={mutation}
      variables={(reason) => ({ kind, reason })}
      onDone={() => onDone(kind === 'unlock' ? t('unlock.done') : t('endSessions.done'))}
    />
  );
}

function ResendDialog({ participant, onClose, onDone }: ActionProps) {
  const { client, identity } = participant;
  const [mail, setMail] = useState<'activation' | 'passwordReset'>(identity.status === 'pending' ? 'activation' : 'passwordReset');
  const mutation = useResendMail(client.id, identity.id);
  return (
    <ReasonDialog
      title={t('resend.title')}
      submitLabel={t('resend.submit')}
      onClose={onClose}
      mutation={mutation}
      variables={(reason) => ({ mail, reason })}
      onDone={() => onDone(t('resend.done', { to: identity.email }))}
    >
      <Field label={t('resend.which')}>
        {(id) => (
          <select id={id} value={mail} onChange={(e) => setMail(e.target.value === 'activation' ? 'activation' : 'passwordReset')}>
            <option value="activation">{t('resend.activation')}</option>
            <option value="passwordReset">{t('resend.passwordReset')}</option>
          </select>
        )}
      </Field>
    </ReasonDialog>
  );
}

function DetailsDialog({ participant, onClose, onDone }: ActionProps) {
  const { client, identity } = participant;
  const [fields, setFields] = useState({
    firstName: identity.firstName,
    lastName: identity.lastName,
    email: identity.email,
    accountNumber: identity.accountNumber,
  });
  const mutation = useCorrectDetails(client.id, identity.id);
  const changed = (Object.keys(fields) as Array<keyof typeof fields>).filter((k) => fields[k].trim() !== identity[k]);
  const labels = {
    firstName: t('participant.firstName'),
    lastName: t('participant.lastName'),
    email: t('participant.email'),
    accountNumber: t('participant.accountNumber'),
  };
  return (
    <ReasonDialog
      title={t('details.title')}
      submitLabel={t('details.submit')}
      onClose={onClose}
      ready={changed.length > 0}
      mutation={mutation}
      variables={(reason) => ({ ...Object.fromEntries(changed.map((k) => [k, fields[k].trim()])), reason })}
      onDone={() => onDone(t('details.done'))}
    >
      <div className="grid2">
        {(Object.keys(fields) as Array<keyof typeof fields>).map((k) => (
          <Field key={k} label={labels[k]}>
            {(id) => (
              <input
                id={id}
                type={k === 'email' ? 'email' : 'text'}
                value={fields[k]}
                onChange={(e) => setFields({ ...fields, [k]: e.target.value })}
              />
            )}
          </Field>
        ))}
      </div>
    </ReasonDialog>
  );
}
