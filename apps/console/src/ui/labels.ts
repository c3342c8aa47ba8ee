import type { StaffRole } from '@rewards/contract/console';
import { hasMessage, t, type MessageKey } from '../i18n/t.ts';

const ROLE: Record<StaffRole, MessageKey> = {
  program_manager: 'role.program_manager',
  support_agent: 'role.support_agent',
  auditor: 'role.auditor',
};
export const roleName = (role: StaffRole | null) => (role ? t(ROLE[role]) : t('role.owner'));

/** A participant's status in words; an unknown one as it is. */
export function statusName(status: string): string {
  const key = `status.${status}`;
  return hasMessage(key) ? t(key) : status;
}
