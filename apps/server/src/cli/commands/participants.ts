import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Client } from '../../modules/clients/tables.ts';
import type { Participant } from '../../modules/participants/tables.ts';
import { createDescriber } from '../../modules/activity/describe.ts';
import { participantLimitStanding } from '../../modules/limits/service.ts';
import { clientLocales } from '../../modules/clients/service.ts';
import { buildBundle } from '../../modules/i18n/service.ts';
import { createParticipant } from '../../modules/participants/enrolment.ts';
import { findParticipantByUsername } from '../../modules/participants/service.ts';
import { countLiveSessions } from '../../modules/sessions/service.ts';
import { latestEntries } from '../../modules/ledger/service.ts';
import { programsOf, updateParticipant, type ParticipantChanges } from '../../modules/participants/operator-service.ts';
import { changeStatus, endSessions, unlock } from '../../modules/participants/actions.ts';
import { action, CliError, repeatable, requireClient, type CommandResult } from '../cli-context.ts';
import { checkParticipant, PARTICIPANT_STATUSES, type ParticipantStatus } from '../../modules/participants/fields.ts';
import { importParticipants } from '../participants-import.ts';
import { operatorActor } from './audit.ts';

/** Entries `participants show` lists. */
const SHOWN_ENTRIES = 10;
const OFFERINGS = ['merchandise', 'experiences', 'ots'] as const;

export async function requireParticipant(db: Db, client: Client, username: string): Promise<Participant> {
  const participant = await findParticipantByUsername(db, client.id, username);
  if (!participant) throw new CliError(`No participant "${username}" in client "${client.id}"`);
  return participant;
}

/** `--offerings merchandise,ots` (or `none`) as the three flags. */
function parseOfferings(value: string): Record<(typeof OFFERINGS)[number], boolean> {
  const names = value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && name !== 'none');
  const unknown = names.filter((name) => !(OFFERINGS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new CliError(`--offerings takes ${OFFERINGS.join(', ')} or none (found "${unknown.join(', ')}")`);
  return { merchandise: names.includes('merchandise'), experiences: names.includes('experiences'), ots: names.includes('ots') };
}

function parseStatus(value: string | undefined): ParticipantStatus {
  const status = PARTICIPANT_STATUSES.find((s) => s === value?.trim().toLowerCase());
  if (!status) throw new CliError(`status must be ${PARTICIPANT_STATUSES.join(', ')} (found "${value ?? ''}")`);
  return status;
}

/** The first line of a file (`/dev/stdin` to pipe it): a password never goes on the command line. */
async function readPassword(path: string): Promise<string> {
  let content: string;
  try {
    content = await readFile(path, 'utf8');
  } catch {
    throw new CliError(`Cannot read the password file ${path}`);
  }
  const password = content.split(/\r?\n/)[0] ?? '';
  if (password === '') throw new CliError(`The password file ${path} is empty`);
  return password;
}

interface CreateOptions {
  client?: string;
  firstName: string;
  lastName: string;
  email: string;
  accountNumber: string;
  locale?: string;
  offerings: string;
  program: string[];
  status: string;
  passwordFile?: string;
  dateOfBirth?: string;
}

/** The options of `participants update` that set one field each (programs: --program or --no-programs). */
const UPDATABLE = ['firstName', 'lastName', 'email', 'accountNumber', 'locale', 'offerings', 'program', 'dateOfBirth'] as const;

interface UpdateOptions {
  client?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  accountNumber?: string;
  locale?: string;
  offerings?: string;
  program?: string[];
  /** false with --no-programs; commander's default for a --no- option is true. */
  programs?: boolean;
  dateOfBirth?: string;
}

/** An optional --reason: trimmed, 3 to 500 characters like the console's, or a CliError. */
function reasonOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const reason = value.trim();
  if (reason.length < 3 || reason.length > 500) throw new CliError('--reason must be 3 to 500 characters');
  return reason;
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

export function registerParticipants(program: Command): void {
  const participants = program.command('participants').description("enrol and look after a client's participants");

  const create = participants
    .command('create')
    .description('enrol one participant (pending by default: they activate themselves and choose their password)')
    .argument('<username>', 'sign-in name, unique in the client ignoring case')
    .option('--client <id>', 'the client (required)')
    .requiredOption('--first-name <name>', 'first name')
    .requiredOption('--last-name <name>', 'last name')
    .requiredOption('--email <address>', 'e-mail address')
    .requiredOption('--account-number <number>', "the program's account number, unique in the client")
    .option('--locale <code>', "one of the client's locales (default: the client's default)")
    .option('--offerings <list>', 'comma-separated: merchandise, experiences, ots, or none', 'merchandise,experiences')
    .option('--program <name>', 'a program the participant is in (repeat for several)', repeatable, [])
    .option('--status <status>', 'pending, active or inactive', 'pending')
    .option('--date-of-birth <YYYY-MM-DD>', 'date of birth, for clients whose activation asks for dateOfBirth')
    .option(
      '--password-file <file>',
      "an initial password, first line of the file (/dev/stdin to pipe it); checked against the client's rules",
    );
  action<CreateOptions>(create, async (db, { args, options, operator }) => {
    const client = await requireClient(db, options.client);
    const offerings = parseOfferings(options.offerings);
    const locales = (await clientLocales(db, client.id)).map((l) => l.code);
    const checked = checkParticipant(
      {
        username: args[0] ?? '',
        first_name: options.firstName,
        last_name: options.lastName,
        email: options.email,
        locale: options.locale ?? '',
        account_number: options.accountNumber,
        merchandise: String(offerings.merchandise),
        experiences: String(offerings.experiences),
        ots: String(offerings.ots),
        programs: options.program.join('|'),
        status: parseStatus(options.status),
        ...(options.dateOfBirth === undefined ? {} : { date_of_birth: options.dateOfBirth }),
      },
      { locales, defaultLocale: client.default_locale },
    );
    if (!checked.ok) throw new CliError(checked.reason);
    const fields = checked.fields;
    const password = options.passwordFile ? await readPassword(options.passwordFile) : undefined;
    const { id, status } = await createParticipant(db, operatorActor(operator), client, fields, password);
    return {
      human: `Created ${fields.username} (${status}, account ${fields.accountNumber}) in ${client.id}.${status === 'pending' ? ' They activate on the portal to choose a password.' : ''}`,
      json: {
        id,
        username: fields.username,
        clientId: client.id,
        status,
        accountNumber: fields.accountNumber,
        passwordSet: options.passwordFile !== undefined,
      },
    };
  });

  const update = participants
    .command('update')
    .summary("change a participant's names, e-mail, account number, language, offerings, programs or date of birth")
    .description(
      'change what an operator sets on one participant; what is not given stays as it is. The status has its own command ' +
        "(set-status, which also ends sessions); the password is the participant's (forgot password).",
    )
    .argument('<username>', 'sign-in name (case ignored)')
    .option('--client <id>', 'the client (required)')
    .option('--first-name <name>', 'first name')
    .option('--last-name <name>', 'last name')
    .option('--email <address>', 'e-mail address')
    .option('--account-number <number>', "the program's account number, unique in the client")
    .option('--locale <code>', "one of the client's locales")
    .option('--offerings <list>', 'comma-separated: merchandise, experiences, ots, or none (replaces them)')
    .option('--program <name>', 'a program the participant is in (repeat for several; replaces them)', repeatable)
    .option('--no-programs', 'in no program any more')
    .option('--date-of-birth <YYYY-MM-DD>', 'date of birth ("" for none)');
  action<UpdateOptions>(update, async (db, { args, options, operator }) => {
    const client = await requireClient(db, options.client);
    const participant = await requireParticipant(db, client, args[0] ?? '');
    if (UPDATABLE.every((name) => options[name] === undefined) && options.programs !== false)
      throw new CliError(
        `Nothing to change: give at least one of ${UPDATABLE.map((name) => `--${kebab(name)}`).join(', ')}, --no-programs`,
      );
    const changes: ParticipantChanges = {
      ...(options.firstName === undefined ? {} : { firstName: options.firstName }),
      ...(options.lastName === undefined ? {} : { lastName: options.lastName }),
      ...(options.email === undefined ? {} : { email: options.email }),
      ...(options.accountNumber === undefined ? {} : { accountNumber: options.accountNumber }),
      ...(options.locale === undefined ? {} : { locale: options.locale }),
      ...(options.offerings === undefined ? {} : { offerings: parseOfferings(options.offerings) }),
      ...(options.programs === false ? { programs: [] } : options.program === undefined ? {} : { programs: options.program }),
      ...(options.dateOfBirth === undefined ? {} : { dateOfBirth: options.dateOfBirth }),
    };
    const changed = await updateParticipant(db, operatorActor(operator), client, participant, changes);
    if (changed.length === 0)
      return { human: `${participant.username}: already so; nothing changed.`, json: { username: participant.username, changed: [] } };
    return {
      human: `Updated ${participant.username} in ${client.id}: ${changed.join(', ')}.`,
      json: { username: participant.username, changed },
    };
  });

  const show = participants
    .command('show')
    .summary("a participant's status, balance, latest entries, sessions and throttles")
    .description('what an operator needs to answer a participant: status, balance, latest entries, sessions, throttles, programs')
    .argument('<username>', 'sign-in name (case ignored)')
    .option('--client <id>', 'the client (required)');
  action<{ client?: string }>(show, async (db, { args, options }) => {
    const client = await requireClient(db, options.client);
    const participant = await requireParticipant(db, client, args[0] ?? '');
    return showParticipant(db, participant);
  });

  const setStatus = participants
    .command('set-status')
    .description('pending, active or inactive; pending and inactive also end their sessions')
    .argument('<username>', 'sign-in name (case ignored)')
    .argument('<status>', 'pending, active or inactive')
    .option('--client <id>', 'the client (required)')
    .option('--reason <text>', 'why (audit log)');
  action<{ client?: string; reason?: string }>(setStatus, async (db, { args, options, operator }) => {
    const client = await requireClient(db, options.client);
    const status = parseStatus(args[1]);
    const participant = await requireParticipant(db, client, args[0] ?? '');
    const done = await changeStatus(db, operatorActor(operator), participant, status, reasonOf(options.reason));
    if (!done.changed) {
      return {
        human: `${participant.username} is already ${status}; nothing changed.`,
        json: { username: participant.username, status, changed: false, sessionsEnded: 0 },
      };
    }
    return {
      human: `${participant.username}: ${done.from} → ${status}${done.sessionsEnded > 0 ? `, ${done.sessionsEnded} session(s) ended` : ''}.`,
      json: { username: participant.username, from: done.from, status, changed: true, sessionsEnded: done.sessionsEnded },
    };
  });

  const unlockCommand = participants
    .command('unlock')
    .description('clear the failed attempts that throttle this participant (sign-in, codes, activation, password reset)')
    .argument('<username>', 'sign-in name (case ignored)')
    .option('--client <id>', 'the client (required)')
    .option('--reason <text>', 'why (audit log)');
  action<{ client?: string; reason?: string }>(unlockCommand, async (db, { args, options, operator }) => {
    const client = await requireClient(db, options.client);
    const participant = await requireParticipant(db, client, args[0] ?? '');
    const { failuresCleared } = await unlock(db, loadConfig().limits, operatorActor(operator), participant, reasonOf(options.reason));
    return {
      human: `${participant.username}: ${failuresCleared} failed attempt(s) cleared; they can sign in again.`,
      json: { username: participant.username, failuresCleared },
    };
  });

  const sessions = participants.command('sessions').description("a participant's sessions");
  const end = sessions
    .command('end')
    .description('sign the participant out everywhere')
    .argument('<username>', 'sign-in name (case ignored)')
    .option('--client <id>', 'the client (required)')
    .option('--reason <text>', 'why (audit log)');
  action<{ client?: string; reason?: string }>(end, async (db, { args, options, operator }) => {
    const client = await requireClient(db, options.client);
    const participant = await requireParticipant(db, client, args[0] ?? '');
    const { sessionsEnded } = await endSessions(db, operatorActor(operator), participant, reasonOf(options.reason));
    return {
      human: `${participant.username}: ${sessionsEnded} session(s) ended.`,
      json: { username: participant.username, sessionsEnded },
    };
  });

  const importCommand = participants
    .command('import')
    .summary('enrol or update participants from a CSV file (idempotent on username)')
    .description(
      'enrol or update participants from a CSV file with the header ' +
        'username,first_name,last_name,email,locale,account_number,merchandise,experiences,ots,programs,status ' +
        'and optionally date_of_birth ' +
        '(any order; programs separated by |; flags true/false/1/0/yes/no; empty locale: the default; empty status: pending for new, unchanged otherwise; ' +
        'date_of_birth YYYY-MM-DD, empty for none, a file without the column leaves dates as they are). ' +
        'Idempotent on username: a re-run updates changed lines and leaves the rest. ' +
        "Runs as the console's import job (the client's one job at a time).",
    )
    .argument('<file>', 'the CSV file (UTF-8)')
    .option('--client <id>', 'the client (required)')
    .option('--rejects <file>', 'write the rejected lines (line,reason) to this CSV file')
    .option('--dry-run', 'check the file against the participants and say what would change; change nothing');
  action<{ client?: string; rejects?: string; dryRun?: boolean }>(importCommand, async (db, { args, options, operator }) => {
    const client = await requireClient(db, options.client);
    return importParticipants(db, client, args[0] ?? '', { operator, rejectsPath: options.rejects, dryRun: options.dryRun === true });
  });
}

async function showParticipant(db: Db, participant: Participant): Promise<CommandResult> {
  const clientId = participant.client_id;
  const now = new Date();
  const [programs, liveSessions, entries, limits, bundle] = await Promise.all([
    programsOf(db, clientId, [participant.id]),
    countLiveSessions(db, clientId, participant.id, now.toISOString()),
    latestEntries(db, clientId, participant.id, SHOWN_ENTRIES),
    participantLimitStanding(db, loadConfig().limits, participant, now),
    buildBundle(db, clientId, participant.locale),
  ]);
  const describe = createDescriber(bundle.properties, participant.locale);
  const failures = Object.fromEntries(limits.map((limit) => [limit.name, limit.taken]));
  const throttled = limits.filter((limit) => limit.taken >= limit.max).map((limit) => limit.name);
  const json = {
    id: participant.id,
    clientId,
    username: participant.username,
    firstName: participant.first_name,
    lastName: participant.last_name,
    email: participant.email,
    accountNumber: participant.account_number,
    locale: participant.locale,
    status: participant.status,
    balance: participant.balance,
    offerings: {
      merchandise: participant.offers_merchandise === 1,
      experiences: participant.offers_experiences === 1,
      ots: participant.ots_enabled === 1,
    },
    programs: programs.get(participant.id) ?? [],
    dateOfBirth: participant.date_of_birth,
    privacyNoticeAcknowledged: participant.privacy_ack_version,
    createdAt: participant.created_at,
    liveSessions,
    failures,
    throttled,
    latestEntries: entries.map((entry) => ({
      date: entry.occurred_at,
      description: describe(entry),
      amount: Number(entry.amount),
      kind: entry.kind,
      reference: entry.reference,
    })),
  };
  const offerings = Object.entries(json.offerings)
    .filter(([, on]) => on)
    .map(([name]) => name);
  const failureText = limits.filter((limit) => limit.taken > 0).map((limit) => `${limit.name} ${limit.taken}/${limit.max}`);
  const lines = [
    `${json.username} (${json.firstName} ${json.lastName}) in ${clientId}: ${json.status}`,
    `  account ${json.accountNumber}, ${json.email}, ${json.locale}, born ${json.dateOfBirth ?? 'unknown'}, enrolled ${json.createdAt}`,
    `  balance ${json.balance ?? 'none (no entries yet)'}`,
    `  offerings: ${offerings.join(', ') || 'none'}; programs: ${json.programs.join(', ') || 'none'}`,
    `  sessions: ${liveSessions} live`,
    `  failed attempts in the window: ${failureText.join(', ') || 'none'}${throttled.length > 0 ? ` (THROTTLED: ${throttled.join(', ')}; rewards participants unlock)` : ''}`,
    entries.length === 0 ? '  no ledger entries' : `  latest ${entries.length} entries, newest first:`,
    ...json.latestEntries.map((e) => `    ${e.date}  ${String(e.amount).padStart(8)}  ${e.kind.padEnd(10)}  ${e.description}`),
  ];
  return { human: lines.join('\n'), json };
}
