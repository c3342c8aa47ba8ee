import type { InvitationRequest, RolesRequest } from '@rewards/contract/console-staff';
import { disableStaff, enableStaff, invite, resetStaff, setRoles } from '../../api/staff.ts';
import { useWrite } from '../../api/mutations.ts';
import { queryKeys } from '../../api/query-keys.ts';

// The owners' writes on staff: each has the staff list read again.

export const useInvite = () =>
  useWrite(
    (body: InvitationRequest) => invite(body),
    () => [queryKeys.staff()],
  );
export const useSetRoles = () =>
  useWrite(
    ({ staffId, ...body }: RolesRequest & { staffId: string }) => setRoles(staffId, body),
    () => [queryKeys.staff()],
  );

export type StaffAction = 'disable' | 'enable' | 'reset';
const calls = { disable: disableStaff, enable: enableStaff, reset: resetStaff };
export const useStaffAction = () =>
  useWrite(
    ({ action, staffId, reason }: { action: StaffAction; staffId: string; reason: string }) => calls[action](staffId, reason),
    () => [queryKeys.staff()],
  );
