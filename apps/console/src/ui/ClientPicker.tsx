import type { ConsoleClient } from '@rewards/contract/console';
import { Field } from './Form.tsx';

export interface ClientPickerProps {
  label: string;
  /** The clients the page shows. */
  clients: readonly ConsoleClient[];
  chosen: ConsoleClient;
  onChoose: (clientId: string) => void;
}

/** The picker of a per-client page's client; nothing when there is only one to pick. */
export function ClientPicker({ label, clients, chosen, onChoose }: ClientPickerProps) {
  if (clients.length < 2) return null;
  return (
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
}
