import { z } from 'zod';
import { StaffRoleGrant, StaffRole, SecondFactor, PasskeyRequest, StaffCodeRequest } from './console.ts';

/**
 * The console's staff management (issue 17, sections 1 and 2), under /api/console/v1 next to
 * ./console.ts: owners list, invite (by mail, through the outbox), grant, revoke, disable,
 * enable and reset staff; each change asks for a reason and a fresh second factor.
 */
const seg = encodeURIComponent;

export const consoleStaffPaths = {
  /** GET: every staff member (owners only). */
  staff: '/staff',
  /** POST: invite by mail with the roles to grant. */
  invitations: '/staff/invitations',
  member: (staffId: string) => `/staff/${seg(staffId)}`,
  /** PUT: the member's roles, replaced as a whole. */
  roles: (staffId: string) => `/staff/${seg(staffId)}/roles`,
  disable: (staffId: string) => `/staff/${seg(staffId)}/disable`,
  enable: (staffId: string) => `/staff/${seg(staffId)}/enable`,
  /** POST: password and second factors cleared, sessions ended, a new enrolment link mailed. */
  reset: (staffId: string) => `/staff/${seg(staffId)}/reset`,
  /** Step-up: pass a second factor again within a live session (fresh for 5 minutes). */
  stepUpTotp: '/step-up/totp',
  stepUpRecoveryCode: '/step-up/recovery-code',
  stepUpPasskeyOptions: '/step-up/passkey/options',
  stepUpPasskey: '/step-up/passkey',
} as const;

/** How long a passed second factor counts as fresh for staff management and large adjustments. */
export const FRESH_SECOND_FACTOR_MINUTES = 5;

export const StaffIdParams = z.object({ staffId: z.string().min(1).max(64) });

export const StaffMember = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  owner: z.boolean(),
  /** invited (enrolment pending) | active | disabled */
  status: z.string(),
  roles: z.array(StaffRoleGrant),
  secondFactors: z.array(SecondFactor),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type StaffMember = z.infer<typeof StaffMember>;
export const StaffMemberList = z.array(StaffMember);

const Reason = z.string().trim().min(3).max(500);
const RoleRequest = z.object({ clientId: z.string().min(1).max(64), role: StaffRole });

export const InvitationRequest = z.object({
  email: z.string().trim().min(3).max(320),
  name: z.string().trim().min(1).max(200),
  owner: z.boolean().default(false),
  roles: z.array(RoleRequest).max(200),
  reason: Reason,
});
export type InvitationRequest = z.infer<typeof InvitationRequest>;

export const RolesRequest = z.object({
  roles: z.array(RoleRequest).max(200),
  /** Added by the server slice (docs/decisions/049): the owner flag; absent, it stays as it is. */
  owner: z.boolean().optional(),
  reason: Reason,
});
export type RolesRequest = z.infer<typeof RolesRequest>;
export const StaffReasonRequest = z.object({ reason: Reason });

/** The step-up requests are the sign-in's own. */
export const StepUpCodeRequest = StaffCodeRequest;
export const StepUpPasskeyRequest = PasskeyRequest;
/** When the fresh second factor stops counting. */
export const StepUpReply = z.object({ freshUntil: z.string() });
export type StepUpReply = z.infer<typeof StepUpReply>;
