import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';

/*
 * Table types. Times are ISO-8601 UTC text from code (sortable, same on both engines);
 * flags are 0/1 integers because node:sqlite binds no booleans.
 */

export interface ClientsTable {
  id: string;
  name: string;
  default_locale: string;
  logo: string;
  brand_color: string;
  privacy_notice_version: number;
  sso_type: string;
  sso_logout_type: string;
  site_name: string;
  site_url: string;
  /** JSON of PasswordRules. */
  password_rules: string;
  /** JSON list of the fields activation asks for (issue of activation). */
  activation_fields: string;
  /** JSON list of {code, name}. */
  countries: string;
  created_at: string;
}

export interface ClientHostsTable {
  hostname: string;
  client_id: string;
}

export interface ClientLocalesTable {
  client_id: string;
  code: string;
  dir: string;
  name: string;
  position: number;
}

/** A client's own wording for a key, over the base bundle shipped with the app. */
export interface TranslationsTable {
  client_id: string;
  locale: string;
  key: string;
  text: string;
}

export interface MediaLabelsTable {
  client_id: string;
  locale: string;
  /** JSON of PluralForms. */
  forms: string;
}

export interface ParticipantsTable {
  id: string;
  client_id: string;
  username: string;
  /** Lower-cased username: sign-in ignores case, uniqueness per client. */
  username_key: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  /** active | pending (not yet activated) | inactive */
  status: string;
  locale: string;
  account_number: string;
  offers_merchandise: number;
  offers_experiences: number;
  ots_enabled: number;
  privacy_ack_version: number;
  /** ISO YYYY-MM-DD, an activation fact (migration 015); null: not given by the program. */
  date_of_birth: string | null;
  /** Cache of the ledger's sum, updated in the same transaction; null until the first entry. */
  balance: number | null;
  created_at: string;
  /**
   * Search keys (migration 020, docs/decisions/045): normalised "first last", "last first",
   * username, e-mail and account number, each with the query length up to which it is hidden
   * by an earlier key of the participant; made only by modules/participants/search-keys.ts
   * (`withSearchKeys`). Required on insert so that no writer can leave them out.
   */
  search_first_last: string;
  search_first_last_hidden: number;
  search_last_first: string;
  search_last_first_hidden: number;
  search_username: string;
  search_username_hidden: number;
  search_email: string;
  search_email_hidden: number;
  search_account: string;
  search_account_hidden: number;
}

export interface ParticipantProgramsTable {
  client_id: string;
  participant_id: string;
  program_name: string;
  position: number;
}

export interface LedgerEntriesTable {
  id: string;
  client_id: string;
  participant_id: string;
  occurred_at: string;
  description: string;
  amount: number;
  /** award | redemption | adjustment | ots */
  kind: string;
  created_at: string;
  /** Translation key of the description, shown in the participant's language (migration 002). */
  description_key: string | null;
  /** JSON of the key's placeholder values. */
  description_params: string | null;
  /** Idempotency key, unique per client: a catalog order or an imported line posts once. */
  reference: string | null;
}

export interface SessionsTable {
  /** SHA-256 of the session id; the id itself is never stored. */
  id_hash: string;
  client_id: string;
  participant_id: string;
  admin_as_user: number;
  created_at: string;
  last_seen_at: string;
  idle_expires_at: string;
  absolute_expires_at: string;
}

/** Slots taken per limited subject in its current window (modules/limits, decision 040). */
export interface AttemptLimitsTable {
  client_id: string;
  /** What is limited, e.g. "sign-in-account:<username_key>" or "sign-in-address:<ip>". */
  subject: string;
  taken: number;
  window_ends_at: string;
}

// ── activity (migration 002) ──────────────────────────────────────────────



// ── on-the-spot codes (migration 003) ─────────────────────────────────────

export type OtsCodeStatus = 'unused' | 'redeemed' | 'void';

/** A code of one client, redeemable once, ever (docs/decisions/008-on-the-spot-codes.md). */
export interface OtsCodesTable {
  id: string;
  client_id: string;
  /** SHA-256 hex of the normalised code: a copy of the database gives no unused code away. */
  code_hash: string;
  /** Last four characters of the normalised code, for operators. */
  code_hint: string;
  /** Points credited, > 0. */
  value: number;
  /** Null: never expires. */
  expires_at: string | null;
  status: OtsCodeStatus;
  redeemed_by: string | null;
  redeemed_at: string | null;
  /** Operator's name for the print run the code came from. */
  batch: string | null;
  created_at: string;
}
export type OtsCode = Selectable<OtsCodesTable>;
export type NewOtsCode = Insertable<OtsCodesTable>;


// ── catalogs and partner API (migration 004) ──────────────────────────────

/** Where a client's catalog of one kind lives: merchandise, experiences (punch-out) or travel (a plain link). */
export interface ClientCatalogsTable {
  client_id: string;
  /** merchandise | experiences | travel */
  kind: string;
  /** Absolute URL, or a path resolved against the portal origin the participant uses. */
  url: string;
  /** The catalog's partner id: the punch-out token's audience; null for the travel link. */
  partner_id: string | null;
}

/** A catalog's credentials for the partner API. */
export interface CatalogPartnersTable {
  id: string;
  client_id: string;
  name: string;
  /** SHA-256 (hex) of the high-entropy secret; the secret itself is never stored. */
  secret_hash: string;
  created_at: string;
}

/** One partner order: the idempotency record of its debit. */
export interface CatalogOrdersTable {
  client_id: string;
  partner_id: string;
  order_id: string;
  participant_id: string;
  points: number;
  request_hash: string;
  /** JSON of the reply sent the first time, sent again for a repeat. */
  reply: string;
  created_at: string;
}

/** A punch-out link issued (migration 019, docs/decisions/043): redeemed once, while its session lives. */
export interface CatalogPunchoutsTable {
  client_id: string;
  /** The token's jti. */
  jti: string;
  /** The token's audience: only this partner may redeem it. */
  partner_id: string;
  participant_id: string;
  /** merchandise | experiences */
  offering: string;
  /** id_hash of the session that asked for the link. */
  session_hash: string;
  issued_at: string;
  expires_at: string;
  redeemed_at: string | null;
}



// ── content and contact (migration 005) ───────────────────────────────────

/** A client's Markdown text for a content key in one locale (rules, FAQs, privacy texts). */
export interface ContentEntriesTable {
  client_id: string;
  locale: string;
  /** faqs | privacyPolicy | privacyNotice | rules.<program name> */
  key: string;
  /** Markdown; rendered to HTML with raw HTML disabled when served. */
  body: string;
  updated_at: string;
}

/** A contact-us message for the client's support desk. */
export interface ContactRequestsTable {
  id: string;
  client_id: string;
  participant_id: string;
  /** Who wrote, as the desk looks accounts up: copied at the time of writing. */
  username: string;
  account_number: string;
  account_email: string;
  /** points | order | ots | account | other */
  topic: string;
  subject: string;
  message: string;
  reply_email: string | null;
  phone: string | null;
  /** The participant's language, so the desk can answer in it. */
  locale: string;
  /** 1 when an administrator acting as the participant sent it. */
  admin_as_user: number;
  /** new, then whatever the desk's tool sets. */
  status: string;
  created_at: string;
}



// ── mail outbox (migration 006) ───────────────────────────────────────────

/** pending: to send (at next_attempt_at) · sending: claimed by a worker until claimed_until · sent · failed */
export type MailStatus = 'pending' | 'sending' | 'sent' | 'failed';

/** A mail the portal sends, queued with the change that causes it, rendered and delivered after it commits (decision 042). */
export interface MailOutboxTable {
  id: string;
  /** null: a mail of the installation, not of a client (the console's enrolment links, migration 024). */
  client_id: string | null;
  participant_id: string | null;
  to_address: string;
  locale: string;
  /** forgotUsername | resetPassword | activated | passwordChanged | contactMessage | noMail (decision 042) | staffInvitation | staffReset (decision 049) */
  template: string;
  subject: string;
  text_body: string;
  html_body: string;
  status: MailStatus;
  attempts: number;
  next_attempt_at: string;
  /** The lease of the worker sending it (status sending); another worker leaves it alone until then. */
  claimed_until: string | null;
  /** Why the last attempt failed, short, no secrets. */
  last_error: string | null;
  /** Where it went: "smtp: <server reply>" or "file: <path of the .eml>". */
  delivery_note: string | null;
  sent_at: string | null;
  /** Stable per row, so a duplicate would be recognisable. */
  message_id: string;
  created_at: string;
}



// ── account lifecycle (migration 007) ─────────────────────────────────────

/** A password reset link (docs/decisions/018-account-lifecycle.md): works once, until it expires or a newer one voids it. */
export interface PasswordResetsTable {
  /** SHA-256 (base64url) of the link's 256-bit secret; the secret itself is never stored. */
  token_hash: string;
  client_id: string;
  participant_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** Set when a newer link for the same participant replaced this one. */
  voided_at: string | null;
}
export type PasswordReset = Selectable<PasswordResetsTable>;



// ── audit log (migration 009) ─────────────────────────────────────────────

/** One thing an operator or administrator did (docs/decisions/020): imports, changes, launch-as. */
export interface AuditLogTable {
  id: string;
  /** Null for installation-wide actions (creating an admin key for all clients). */
  client_id: string | null;
  at: string;
  /** `--operator`, the OS user, or the admin key's name. */
  actor: string;
  /** operator (the rewards command) | admin (admin API key) | participant-session (what a launched-as admin opened) */
  actor_kind: string;
  /** Dotted verb, e.g. clients.create, points.import, launch-as.issue. */
  action: string;
  /** What it acted on: a username, a file, a code hint. */
  subject: string | null;
  /** JSON: counts, changed fields (never a secret), a reason. */
  details: string;
  /** Where from: host name of the operator's machine, or the caller's address. */
  origin: string | null;
}
export type AuditLogEntry = Selectable<AuditLogTable>;



// ── operator: clients (migration 010) ─────────────────────────────────────

/** Columns `rewards clients` added to clients (merged into ClientsTable above); defaults on insert. */
export interface ClientsTable {
  /** image/svg+xml (logo is the SVG text) | image/png (logo is the PNG as base64). */
  logo_type: ColumnType<LogoType, LogoType | undefined, LogoType>;
  /** Where the client's support desk is reached; '' when none is set. */
  support_email: ColumnType<string, string | undefined, string>;
}
export type LogoType = 'image/svg+xml' | 'image/png';

// ── clients: the portal address (migration 017) ──────────────────────────

/** Merged into ClientsTable above; required on insert: a client's mails cannot link without it (decision 041). */
export interface ClientsTable {
  /** The portal's origin (https://rewards.acme.example): every link in the client's mails starts there. */
  portal_url: string;
}


// ── operator: points import (migration 011) ───────────────────────────────



// ── single sign-on (migration 012) ────────────────────────────────────────

/** A client's OpenID provider (docs/decisions/024); the secret is encrypted, never sent anywhere. */
export interface ClientSsoTable {
  client_id: string;
  issuer: string;
  oidc_client_id: string;
  client_secret_enc: string;
  /** Space-separated, openid first. */
  scopes: string;
  /** The ID token / userinfo claim that holds the participant's username. */
  claim: string;
  enabled: number;
  updated_at: string;
}

/** A sign-in under way, keyed by its state; deleted by the first callback that presents it. */
export interface SsoLoginsTable {
  state: string;
  client_id: string;
  nonce: string;
  code_verifier: string;
  browser_hash: string;
  redirect_uri: string;
  created_at: string;
  expires_at: string;
}

/** The single-use id of /sso-authenticated?JSESSIONID=…, at most a minute old. */
export interface SsoHandoffsTable {
  id_hash: string;
  client_id: string;
  participant_id: string;
  created_at: string;
  expires_at: string;
}



// ── launch-as (migration 013) ─────────────────────────────────────────────

/** A single-use link an administrator opens to act as one participant (docs/decisions/025). */
export interface LaunchTokensTable {
  id: string;
  /** sha-256 of the token; the token itself is shown once. */
  token_hash: string;
  client_id: string;
  participant_id: string;
  /** Why, e.g. a support ticket; required. */
  reason: string;
  /** The operator (CLI) or the admin key's name (API). */
  issued_by: string;
  /** cli | api */
  issued_via: string;
  /** Host of the operator's machine, or the API caller's address. */
  issued_from: string | null;
  issued_at: string;
  expires_at: string;
  used_at: string | null;
  used_from: string | null;
  session_hash: string | null;
}
export type LaunchToken = Selectable<LaunchTokensTable>;

/** A support desk's key to the admin API; only its hash is kept. */
export interface AdminKeysTable {
  /** The public part of the key (rk_<id>_<secret>): looked up first, then the secret compared. */
  id: string;
  name: string;
  key_hash: string;
  /** The one client it may act on; null: every client. */
  client_id: string | null;
  created_by: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}
export type AdminKey = Selectable<AdminKeysTable>;



// ── contact mail and the sign-out hint (migration 014) ────────────────────

/** Merged into MailOutboxTable above (docs/decisions/038). */
export interface MailOutboxTable {
  /** Reply-To of the mail (a contact message: the participant's address); null: none. */
  reply_to: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Merged into ContactRequestsTable above. */
export interface ContactRequestsTable {
  /** The outbox row that carries the message to the support desk; null: not mailed (no support address). */
  mail_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Merged into SsoHandoffsTable above: the provider's ID token, sealed, on its way to the session. */
export interface SsoHandoffsTable {
  id_token_sealed: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The provider's ID token of a session that single sign-on started; deleted with the session (cascade). */
export interface SsoSessionTokensTable {
  session_hash: string;
  client_id: string;
  /** AES-256-GCM with the installation's SSO key, the client id authenticated with it. */
  id_token_sealed: string;
  expires_at: string;
}

/** An ID token kept from the portal's sign-out for the browser's next stop, sso/logout (single use). */
export interface SsoSignoutsTable {
  /** SHA-256 of the browser's HttpOnly sign-out cookie. */
  hint_hash: string;
  client_id: string;
  id_token_sealed: string;
  expires_at: string;
}


// ── staff console (migration 021) ─────────────────────────────────────────

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



// ── mail rendered at delivery (migration 018) ─────────────────────────────

/** Merged into MailOutboxTable above (docs/decisions/042). */
export interface MailOutboxTable {
  /**
   * What the delivery worker renders the mail from (JSON: the template's values and the client's
   * origin); null once the mail is sent or given up, and on rows rendered when queued (before 018).
   * subject, text_body and html_body stay '' until delivery, and the bodies are '' again after it.
   */
  params: ColumnType<string | null, string | null | undefined, string | null>;
}


export interface Database {
  clients: ClientsTable;
  client_hosts: ClientHostsTable;
  client_locales: ClientLocalesTable;
  translations: TranslationsTable;
  media_labels: MediaLabelsTable;
  participants: ParticipantsTable;
  participant_programs: ParticipantProgramsTable;
  ledger_entries: LedgerEntriesTable;
  sessions: SessionsTable;
  attempt_limits: AttemptLimitsTable;
  // activity


  // ots
  ots_codes: OtsCodesTable;


  // catalogs
  client_catalogs: ClientCatalogsTable;
  catalog_partners: CatalogPartnersTable;
  catalog_orders: CatalogOrdersTable;
  catalog_punchouts: CatalogPunchoutsTable;


  // content and contact
  content_entries: ContentEntriesTable;
  contact_requests: ContactRequestsTable;
  // mail outbox
  mail_outbox: MailOutboxTable;


  // account lifecycle
  password_resets: PasswordResetsTable;
  // audit log
  audit_log: AuditLogTable;
  // operator: clients

  // operator: points import

  // single sign-on
  client_sso: ClientSsoTable;
  sso_logins: SsoLoginsTable;
  sso_handoffs: SsoHandoffsTable;

  // launch-as
  launch_tokens: LaunchTokensTable;
  admin_keys: AdminKeysTable;
  // contact mail and the sign-out hint
  sso_session_tokens: SsoSessionTokensTable;
  sso_signouts: SsoSignoutsTable;
  // staff console
  staff: StaffTable;
  staff_roles: StaffRolesTable;
  staff_recovery_codes: StaffRecoveryCodesTable;
  staff_enrolments: StaffEnrolmentsTable;
  staff_sessions: StaffSessionsTable;
  staff_passkeys: StaffPasskeysTable;
  // console reads (migration 023)
  participant_sign_ins: ParticipantSignInsTable;


}

// ── console adjustments (migration 022, docs/decisions/048) ──────────────

export interface LedgerEntriesTable {
  /** Why staff or an operator adjusted: never shown to the participant. */
  internal_note: ColumnType<string | null, string | null | undefined, string | null>;
  /** Who posted it (staff e-mail, operator name@host); null for imports, codes, orders. */
  posted_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** The console form's key, unique per client: a double click posts once. */
  request_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ClientsTable {
  /** Points (credits and debits together) one support agent may adjust per day. */
  agent_daily_adjustment_limit: ColumnType<number, number | undefined, number>;
}

// ── console reads (migration 023, docs/decisions/047) ────────────────────

/** When a participant last signed in: written by a trigger on sessions (not launch-as), never by code. */
export interface ParticipantSignInsTable {
  client_id: string;
  participant_id: string;
  last_at: string;
}

export type Client = Selectable<ClientsTable>;
export type NewClient = Insertable<ClientsTable>;
export type Participant = Selectable<ParticipantsTable>;
export type NewParticipant = Insertable<ParticipantsTable>;
export type ParticipantUpdate = Updateable<ParticipantsTable>;
export type Session = Selectable<SessionsTable>;
export type LedgerEntry = Selectable<LedgerEntriesTable>;
export type NewLedgerEntry = Insertable<LedgerEntriesTable>;
