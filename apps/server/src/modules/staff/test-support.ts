import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HTTPMethods, LightMyRequestResponse } from 'fastify';
import {
  CONSOLE_API_BASE,
  ENROLMENT_TOKEN_HEADER,
  consolePaths,
  type EnrolmentPasswordReply,
  type EnrolmentTotpReply,
  type StaffRole,
} from '@rewards/contract/console';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import type { Dialect } from '../../../test/databases.ts';
import { createStaff, type StaffActor } from './accounts.ts';
import { totpCode } from './secrets.ts';

/** The console's origin in the tests: the demo's default. */
export const CONSOLE_ORIGIN = 'http://console.localhost:3000';
export const STAFF_PASSWORD = 'Console-Test-2026';
export const TEST_ACTOR: StaffActor = { name: 'test-operator', kind: 'operator', origin: 'test', reason: 'staff tests' };

export interface ConsoleTestApp extends TestApp {
  /** A call to the console API as its own pages make it: its host, its Origin on changes, the cookie if given. */
  console(
    method: HTTPMethods,
    path: string,
    options?: { body?: unknown; cookie?: string; headers?: Record<string, string>; token?: string; payload?: string },
  ): Promise<LightMyRequestResponse>;
  dataDir: string;
}

/** The test app with its own data folder (the sealing key) and the console on its default origin. */
export async function createConsoleTestApp(dialect: Dialect, env: Record<string, string> = {}): Promise<ConsoleTestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rewards-staff-'));
  const t = await createTestApp(dialect, { DATA_DIR: dataDir, ...env });
  const origin = t.config.console.origin;
  const host = new URL(origin).host;
  return {
    ...t,
    dataDir,
    console: (method, path, options = {}) =>
      t.app.inject({
        method,
        url: `${CONSOLE_API_BASE}${path}`,
        headers: {
          host,
          ...(method === 'GET' ? {} : { origin }),
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(options.cookie ? { cookie: `${cookieName(origin)}=${options.cookie}` } : {}),
          ...(options.token ? { [ENROLMENT_TOKEN_HEADER]: options.token } : {}),
          ...options.headers,
        },
        ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
        // A raw body (an import's CSV), with its content-type in headers.
        ...(options.payload === undefined ? {} : { payload: options.payload }),
      }),
    async close() {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const cookieName = (origin: string) => (origin.startsWith('https:') ? '__Host-rewards_console' : 'rewards_console');

/** The console cookie a reply sets ('' when it clears it), or undefined. */
export function consoleCookieOf(reply: LightMyRequestResponse): string | undefined {
  const cookie = reply.cookies.find((c) => c.name === 'rewards_console' || c.name === '__Host-rewards_console');
  return cookie?.value;
}

/** The token of an enrolment link (after its #). */
export const tokenOf = (url: string) => url.slice(url.indexOf('#') + 1);

export interface EnrolledStaff {
  email: string;
  secret: string;
  recoveryCodes: string[];
  /** The full session the enrolment started. */
  cookie: string;
}

/** A person created by the operator's service and enrolled through the API, as a newcomer would. */
export async function enrolStaff(
  t: ConsoleTestApp,
  email: string,
  access: { owner?: boolean; roles?: Array<{ clientId: string; role: StaffRole }> },
): Promise<EnrolledStaff> {
  const { enrolment } = await createStaff(t.database.db, t.config.console.origin, TEST_ACTOR, {
    email,
    name: email.split('@')[0] ?? email,
    owner: access.owner ?? false,
    roles: access.roles ?? [],
  });
  const token = tokenOf(enrolment.url);
  const password = await t.console('POST', consolePaths.enrolmentPassword, { token, body: { password: STAFF_PASSWORD } });
  if (password.statusCode !== 200) throw new Error(`enrolment password ${email}: ${password.statusCode} ${password.body}`);
  const { totpSecret } = password.json<EnrolmentPasswordReply>();
  const confirm = await t.console('POST', consolePaths.enrolmentTotp, { token, body: { code: totpCode(totpSecret) } });
  if (confirm.statusCode !== 200) throw new Error(`enrolment code ${email}: ${confirm.statusCode} ${confirm.body}`);
  return {
    email,
    secret: totpSecret,
    recoveryCodes: confirm.json<EnrolmentTotpReply>().recoveryCodes,
    cookie: consoleCookieOf(confirm) ?? '',
  };
}

/**
 * A code that the server will take now. The server refuses a time step it has taken before (no
 * replay), and a test signs in faster than codes change: the person's last step is forgotten
 * first. (The replay test itself does not use this.)
 */
export async function freshCode(t: ConsoleTestApp, email: string, secret: string): Promise<string> {
  await t.database.db.updateTable('staff').set({ totp_last_step: null }).where('email_key', '=', email.toLowerCase()).execute();
  return totpCode(secret);
}

/** Password then TOTP: the full session's cookie. */
export async function signIn(t: ConsoleTestApp, person: EnrolledStaff, password = STAFF_PASSWORD): Promise<string> {
  const first = await t.console('POST', consolePaths.signIn, { body: { email: person.email, password } });
  if (first.statusCode !== 200) throw new Error(`sign-in ${person.email}: ${first.statusCode} ${first.body}`);
  const second = await t.console('POST', consolePaths.signInTotp, {
    cookie: consoleCookieOf(first),
    body: { code: await freshCode(t, person.email, person.secret) },
  });
  if (second.statusCode !== 200) throw new Error(`sign-in code ${person.email}: ${second.statusCode} ${second.body}`);
  return consoleCookieOf(second) ?? '';
}
