import type { Command } from 'commander';
import { STAFF_ROLES, type StaffRole } from '@rewards/contract/console';
import { loadConfig } from '../../config.ts';
import {
  createStaff,
  disableStaff,
  enableStaff,
  grantStaff,
  isStaffRole,
  listStaffViews,
  resetStaff,
  revokeStaff,
  type EnrolmentLink,
  type RoleChange,
  type StaffActor,
  type StaffView,
} from '../../modules/staff/accounts.ts';
import { action, CliError, repeatable } from '../cli-context.ts';
import { operatorOrigin } from './audit.ts';

/**
 * `rewards staff …`: the console's people (docs/decisions/046). Each command parses its flags,
 * calls modules/staff/accounts.ts (which checks, changes and audits in one transaction) and
 * prints; every change carries --reason into the audit log.
 */

const ROLES = STAFF_ROLES.join(', ');

function actorOf(operator: string, reason: string): StaffActor {
  return { name: operator, kind: 'operator', origin: operatorOrigin, reason };
}

function parseRole(value: string): StaffRole {
  if (!isStaffRole(value)) throw new CliError(`--role must be one of ${ROLES}`);
  return value;
}

function rolesText(view: StaffView): string {
  const roles = view.roles.map((r) => `${r.clientId}:${r.role}`);
  return [...(view.owner ? ['owner'] : []), ...roles].join(', ') || 'no role';
}

function describe(view: StaffView): string {
  const enrolled = view.enrolled
    ? `enrolled ${view.enrolledAt}`
    : view.enrolmentOpenUntil
      ? `not enrolled (link open until ${view.enrolmentOpenUntil})`
      : 'not enrolled (no open link: staff reset)';
  return [view.email, `"${view.name}"`, view.status, rolesText(view), enrolled, `last sign-in ${view.lastSignInAt ?? 'never'}`].join('  ');
}

function linkText(link: EnrolmentLink): string {
  return `Enrolment link (single use, until ${link.expiresAt}):\n\n  ${link.url}\n\nHand it to the person over a channel you trust: whoever opens it sets the password and second factor.`;
}

/** --owner, or --client with --role (grant) / --client alone (revoke). */
function roleChange(options: { owner?: boolean; client?: string; role?: string }, needsRole: boolean): RoleChange {
  if (options.owner === true) {
    if (options.client !== undefined || options.role !== undefined) throw new CliError('give --owner, or --client (with --role), not both');
    return { owner: true };
  }
  if (!options.client) throw new CliError(needsRole ? 'give --client <id> --role <role>, or --owner' : 'give --client <id>, or --owner');
  if (!needsRole) {
    if (options.role !== undefined) throw new CliError('revoke takes no --role: the person holds one role per client');
    return { clientId: options.client };
  }
  if (!options.role) throw new CliError(`--role is required: ${ROLES}`);
  return { clientId: options.client, role: parseRole(options.role) };
}

export function registerStaff(program: Command): void {
  const staff = program
    .command('staff')
    .description("the staff console's people: owners, and roles per client (program_manager, support_agent, auditor)");
  const reason = ['--reason <text>', 'why, for the audit log (3 to 500 characters)'] as const;

  const create = staff
    .command('create')
    .description('add a staff member and print their single-use enrolment link (72 hours)')
    .argument('<email>', 'their e-mail address, which they sign in with')
    .requiredOption('--name <name>', 'their name, as the console shows it')
    .option('--owner', 'the whole installation (manages staff)')
    .option('--role <role>', `a role in the --client given in the same place: ${ROLES} (repeatable)`, repeatable)
    .option('--client <id>', 'the client of the --role in the same place (repeatable)', repeatable)
    .requiredOption(...reason);
  action<{ name: string; owner?: boolean; role?: string[]; client?: string[]; reason: string }>(
    create,
    async (db, { args, options, operator }) => {
      const roles = options.role ?? [];
      const clients = options.client ?? [];
      if (roles.length !== clients.length) throw new CliError('give each --role with its --client: --role support_agent --client acme');
      const input = {
        email: args[0] ?? '',
        name: options.name,
        owner: options.owner === true,
        roles: roles.map((role, i) => ({ clientId: clients[i] ?? '', role: parseRole(role) })),
      };
      const { staff: view, enrolment } = await createStaff(db, loadConfig().console.origin, actorOf(operator, options.reason), input);
      return {
        human: `Created staff member ${view.email} (${rolesText(view)}).\n${linkText(enrolment)}`,
        json: { staff: view, enrolment },
      };
    },
  );

  action(staff.command('list').description('everyone: roles per client, status, enrolled or not, last sign-in'), async (db) => {
    const views = await listStaffViews(db);
    return { human: views.length === 0 ? 'No staff.' : views.map(describe).join('\n'), json: views };
  });

  const grant = staff
    .command('grant')
    .description('give a role in a client (replacing the one held there), or the owner flag')
    .argument('<email>')
    .option('--client <id>', 'the client')
    .option('--role <role>', ROLES)
    .option('--owner', 'make the person an owner')
    .requiredOption(...reason);
  action<{ client?: string; role?: string; owner?: boolean; reason: string }>(grant, async (db, { args, options, operator }) => {
    const { staff: view, changed } = await grantStaff(db, actorOf(operator, options.reason), args[0] ?? '', roleChange(options, true));
    return {
      human: `${changed ? 'Granted' : 'Nothing to change'}: ${view.email} now has ${rolesText(view)}.`,
      json: { staff: view, changed },
    };
  });

  const revoke = staff
    .command('revoke')
    .description('take back the role held in a client, or the owner flag')
    .argument('<email>')
    .option('--client <id>', 'the client')
    .option('--owner', 'take back the owner flag')
    .requiredOption(...reason);
  action<{ client?: string; role?: string; owner?: boolean; reason: string }>(revoke, async (db, { args, options, operator }) => {
    const { staff: view, changed } = await revokeStaff(db, actorOf(operator, options.reason), args[0] ?? '', roleChange(options, false));
    return {
      human: `${changed ? 'Revoked' : 'Nothing to change'}: ${view.email} now has ${rolesText(view)}.`,
      json: { staff: view, changed },
    };
  });

  const disable = staff
    .command('disable')
    .description('no more sign-in; their sessions end now')
    .argument('<email>')
    .requiredOption(...reason);
  action<{ reason: string }>(disable, async (db, { args, options, operator }) => {
    const { staff: view, sessionsEnded, changed } = await disableStaff(db, actorOf(operator, options.reason), args[0] ?? '');
    return {
      human: `${changed ? 'Disabled' : 'Already disabled'}: ${view.email}; ${sessionsEnded} session(s) ended.`,
      json: { staff: view, sessionsEnded, changed },
    };
  });

  const enable = staff
    .command('enable')
    .description('may sign in again, with the password and second factor they had')
    .argument('<email>')
    .requiredOption(...reason);
  action<{ reason: string }>(enable, async (db, { args, options, operator }) => {
    const { staff: view, changed } = await enableStaff(db, actorOf(operator, options.reason), args[0] ?? '');
    return { human: `${changed ? 'Enabled' : 'Already enabled'}: ${view.email}.`, json: { staff: view, changed } };
  });

  const reset = staff
    .command('reset')
    .description('void the password, second factor and recovery codes now, end the sessions, and print a new enrolment link')
    .argument('<email>')
    .requiredOption(...reason);
  action<{ reason: string }>(reset, async (db, { args, options, operator }) => {
    const {
      staff: view,
      enrolment,
      sessionsEnded,
    } = await resetStaff(db, loadConfig().console.origin, actorOf(operator, options.reason), args[0] ?? '');
    return {
      human: `Reset ${view.email}: ${sessionsEnded} session(s) ended; password and second factor are set again from the link.\n${linkText(enrolment)}`,
      json: { staff: view, enrolment, sessionsEnded },
    };
  });
}
