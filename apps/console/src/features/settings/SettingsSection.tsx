import { useId, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { t } from '../../i18n/t.ts';
import { QueryView } from '../../ui/QueryView.tsx';

/** What a section's change dialog is given: the settings it starts from, and what to do when it closes or saves. */
export interface ChangeDialogProps<T> {
  current: T;
  onClose: () => void;
  /** After the section's save (mutations.ts, which makes this read stale); `changed` false: the server found nothing to change. */
  onSaved: (changed: boolean) => void;
}

/**
 * One section of a client's settings: its heading, what is set now (read by one query), and for
 * program managers and owners a "Change" button opening the section's dialog; a save says whether
 * anything changed (the save's mutation has the settings read again).
 */
export function SettingsSection<T>({
  title,
  queryKey,
  load,
  canChange,
  changeLabel,
  savedText,
  unchangedText = t('clientSettings.unchanged'),
  shown,
  dialog,
}: {
  title: string;
  queryKey: readonly unknown[];
  load: () => Promise<T>;
  canChange: boolean;
  changeLabel: string;
  savedText: string;
  unchangedText?: string;
  /** What is set now, in words. */
  shown: (data: T) => ReactNode;
  dialog: (props: ChangeDialogProps<T>) => ReactNode;
}) {
  const settings = useQuery({ queryKey, queryFn: load });
  const [editing, setEditing] = useState(false);
  const [message, setMessage] = useState('');
  const headingId = useId();
  return (
    <section className="section" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      <QueryView query={settings}>
        {(data) => (
          <>
            {shown(data)}
            {canChange ? (
              <div className="settings-row">
                <button type="button" className="button" onClick={() => setEditing(true)}>
                  {changeLabel}
                </button>
                <span role="status">{message}</span>
              </div>
            ) : null}
            {editing
              ? dialog({
                  current: data,
                  onClose: () => setEditing(false),
                  onSaved: (changed) => setMessage(changed ? savedText : unchangedText),
                })
              : null}
          </>
        )}
      </QueryView>
    </section>
  );
}
