import type { ConsoleClient } from '@rewards/contract/console';
import { Field } from './Form.tsx';

export interface ClientPickerProps {
  label: string;
  /** The clients the page shows. */
  clients: readonly ConsoleClient[];
  chosen: ConsoleClient;
  onChoose: (clientId: string) => void;
  /** Inside a settings row, as the per-client pages lay out their first line. */
  row?: boolean;
}

/** The picker of a per-client page's client; nothing when there is only one to pick. */
export function ClientPicker({ label, clients, chosen, onChoose, row = false }: ClientPickerProps) {
  if (clients.length < 2) return null;
  const picker = (
    <Field label={label}>
      {(id) => (
        <select id={id} value={chosen.id} onChange={(e) => onChoose(e.target.value)}>
          {clients.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
  return row ? <div className="settings-row">{picker}</div> : picker;
}
