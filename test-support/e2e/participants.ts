/**
 * People and codes made for one story (decision 071): a story that signs a participant in, moves
 * their points, sessions or counters, or redeems a code, makes its own here, through the operator
 * command as an operator would. Every call makes a new one (the name carries the time and a
 * counter), so no two stories, and no second run on the same server, ever share one.
 * No vitest here: plain scripts may import it.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_PASSWORD } from './pages.ts';
import { rewardsCli } from './operator.ts';

export interface Participant {
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  accountNumber: string;
}

export interface ParticipantOptions {
  firstName?: string;
  lastName?: string;
  /** Points of one award, posted now (none by default: a participant who has never earned). */
  points?: number;
  /** One of the client's locales (default: the client's default). */
  locale?: string;
  /** pending (not activated yet; no password), active (the default) or inactive. */
  status?: 'pending' | 'active' | 'inactive';
  /** The command's --offerings (default: merchandise, experiences and on-the-spot codes). */
  offerings?: string;
  programs?: string[];
  client?: string;
}

let made = 0;

/** Something no earlier call made: the time in base 36 and a counter. */
export function unique(): string {
  made += 1;
  return `${Date.now().toString(36)}${made}`;
}

/**
 * A participant of the story's own on the server of `databaseUrl`: active and signing in with the
 * demo password unless told otherwise, the e-mail address `<username>@example.com`.
 */
export async function makeParticipant(databaseUrl: string, options: ParticipantOptions = {}): Promise<Participant> {
  const { firstName = 'Nora', lastName = 'Newcomer', client = 'acme', status = 'active' } = options;
  const tag = unique();
  const person = {
    username: `${firstName.toLowerCase()}-${tag}`,
    firstName,
    lastName,
    email: `${firstName.toLowerCase()}-${tag}@example.com`,
    accountNumber: `${Date.now()}${made}`,
  };
  const dir = await mkdtemp(join(tmpdir(), 'rewards-participant-'));
  try {
    const passwordFile = join(dir, 'password');
    await writeFile(passwordFile, `${DEMO_PASSWORD}\n`);
    await rewardsCli(databaseUrl, [
      'participants',
      'create',
      person.username,
      '--client',
      client,
      '--first-name',
      firstName,
      '--last-name',
      lastName,
      '--email',
      person.email,
      '--account-number',
      person.accountNumber,
      '--status',
      status === 'pending' ? 'pending' : 'active',
      '--offerings',
      options.offerings ?? 'merchandise,experiences,ots',
      ...(options.locale ? ['--locale', options.locale] : []),
      ...(options.programs ?? []).flatMap((program) => ['--program', program]),
      ...(status === 'pending' ? [] : ['--password-file', passwordFile]),
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (options.points) {
    await rewardsCli(databaseUrl, [
      'points',
      'award',
      '--client',
      client,
      '--username',
      person.username,
      '--points',
      String(options.points),
      '--reason',
      'Welcome to the program',
    ]);
  }
  // Inactive after the award: the command credits active participants.
  if (status === 'inactive') {
    await rewardsCli(databaseUrl, [
      'participants',
      'set-status',
      person.username,
      'inactive',
      '--client',
      client,
      '--reason',
      'browser test',
    ]);
  }
  return person;
}

/** `count` new on-the-spot codes of `value` points each, in a batch of the story's own; the plain codes. */
export async function makeCodes(databaseUrl: string, count: number, value: number, client = 'acme'): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'rewards-codes-'));
  try {
    const out = join(dir, 'codes.csv');
    const batch = `browser test ${unique()}`;
    await rewardsCli(databaseUrl, [
      'codes',
      'generate',
      '--client',
      client,
      '--count',
      String(count),
      '--value',
      String(value),
      '--out',
      out,
      '--batch',
      batch,
      '--reason',
      'browser test',
    ]);
    const [, ...lines] = (await readFile(out, 'utf8')).trim().split(/\r?\n/);
    return lines.map((line) => line.split(',')[0]!);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
