import type { ColumnType, Selectable } from 'kysely';

/** A member of staff (docs/decisions/046): not a participant; signs in on the console origin. */
export interface StaffTable {
  id: string;
  email: string;
  /** Lower-cased e-mail: unique whatever its case. */
  email_key: string;
  name: string;
  /** argon2id; null until enrolled. */
  password_hash: string | null;
  /** active | disabled */
  status: string;
  /** 0/1: the whole installation. */
  owner: number;
  /** AES-256-GCM with the installation's key, the staff id authenticated with it. */
  totp_secret_sealed: string | null;
  totp_last_step: number | null;
  created_at: string;
  enrolled_at: string | null;
  last_sign_in_at: string | null;
}
export type Staff = Selectable<StaffTable>;

/** One role of one person in one client. */
export interface StaffRolesTable {
  staff_id: string;
  client_id: string;
  /** program_manager | support_agent | auditor */
  role: string;
  granted_at: string;
  granted_by: string;
}

export interface StaffRecoveryCodesTable {
  staff_id: string;
  /** SHA-256 of the staff id and the normalised code. */
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

/** A single-use enrolment link (SHA-256 of its token), with what its steps have set so far. */
export interface StaffEnrolmentsTable {
  token_hash: string;
  staff_id: string;
  created_by: string;
  created_at: string;
  expires_at: string;
  password_hash: string | null;
  totp_secret_sealed: string | null;
  webauthn_challenge: string | null;
  used_at: string | null;
}
export type StaffEnrolment = Selectable<StaffEnrolmentsTable>;

/** A console session (SHA-256 of its cookie's id); second_factor_at null: half signed in. */
export interface StaffSessionsTable {
  id_hash: string;
  staff_id: string;
  created_at: string;
  created_from: string | null;
  last_seen_at: string;
  idle_expires_at: string;
  absolute_expires_at: string;
  second_factor_at: string | null;
  webauthn_challenge: string | null;
}
export type StaffSession = Selectable<StaffSessionsTable>;

/** A passkey (WebAuthn credential) of a staff member: its id, public key and signature counter. */
export interface StaffPasskeysTable {
  id: string;
  staff_id: string;
  public_key: string;
  /** bigint: PostgreSQL returns it as text; read with Number(). */
  counter: ColumnType<string | number, number, number>;
  transports: string;
  created_at: string;
  last_used_at: string | null;
}
export type StaffPasskey = Selectable<StaffPasskeysTable>;

/** A staff sign-in at the installation's OpenID provider under way (decision 068), keyed by its state. */
export interface StaffOidcLoginsTable {
  state: string;
  nonce: string;
  code_verifier: string;
  /** SHA-256 of the binding cookie of the browser that started. */
  browser_hash: string;
  /** Seconds asked for as max_age (0 for a fresh sign-in); null: none. */
  max_age: number | null;
  /** A step-up: the id hash of the console session whose second factor it renews (null: a sign-in). */
  step_up_session: string | null;
  /** The console page to come back to after a step-up. */
  return_to: string | null;
  created_at: string;
  expires_at: string;
}
export type StaffOidcLogin = Selectable<StaffOidcLoginsTable>;

/** The provider's subject linked to a staff account at its first provider sign-in. */
export interface StaffOidcSubjectsTable {
  staff_id: string;
  issuer: string;
  subject: string;
  linked_at: string;
}
