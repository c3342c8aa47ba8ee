import { consoleStaffPaths as paths, type InvitationRequest, type RolesRequest, type StaffMember } from '@rewards/contract/console-staff';
import { api } from './client.ts';

// Staff management (console-staff.ts of the contract); each change may ask for a step-up first.

export const listStaff = () => api<StaffMember[]>('GET', paths.staff);
export const invite = (body: InvitationRequest) => api<unknown>('POST', paths.invitations, { body });
export const setRoles = (staffId: string, body: RolesRequest) => api<unknown>('PUT', paths.roles(staffId), { body });
export const disableStaff = (staffId: string, reason: string) => api<unknown>('POST', paths.disable(staffId), { body: { reason } });
export const enableStaff = (staffId: string, reason: string) => api<unknown>('POST', paths.enable(staffId), { body: { reason } });
export const resetStaff = (staffId: string, reason: string) => api<unknown>('POST', paths.reset(staffId), { body: { reason } });
