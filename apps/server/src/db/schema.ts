/*
 * The database as Kysely sees it. Each table's type sits beside the module that writes it
 * (`modules/<module>/tables.ts`, decision 052), every column the migrations give it in one
 * declaration. Times are ISO-8601 UTC text from code (sortable, same on both engines); flags are
 * 0/1 integers because node:sqlite binds no booleans.
 */
import type { PasswordResetsTable } from '../modules/account/tables.ts';
import type { ApiKeyBucketsTable, ApiKeyScopeUsesTable, ApiKeysTable } from '../modules/api-keys/tables.ts';
import type { AuditLogTable } from '../modules/audit/tables.ts';
import type { CatalogOrdersTable, CatalogPartnersTable, CatalogPunchoutsTable, ClientCatalogsTable } from '../modules/catalog/tables.ts';
import type { ClientHostsTable, ClientLocalesTable, ClientsTable, MediaLabelsTable } from '../modules/clients/tables.ts';
import type { ContactRequestsTable, ContentEntriesTable } from '../modules/content/tables.ts';
import type { ExpiryNoticesTable, LotConsumptionsTable, PointLotsTable } from '../modules/expiry/tables.ts';
import type { TranslationsTable } from '../modules/i18n/tables.ts';
import type { JobLeasesTable, JobSlotsTable, JobsTable } from '../modules/jobs/tables.ts';
import type { ImportLinesTable, ImportRejectsTable } from '../modules/imports/tables.ts';
import type { AdminKeysTable, LaunchTokensTable } from '../modules/launch-as/tables.ts';
import type { LedgerEntriesTable } from '../modules/ledger/tables.ts';
import type { AttemptLimitsTable } from '../modules/limits/tables.ts';
import type { MailOutboxTable } from '../modules/mail/tables.ts';
import type { OtsBatchesTable, OtsCodesTable } from '../modules/ots/tables.ts';
import type { ParticipantProgramsTable, ParticipantsTable } from '../modules/participants/tables.ts';
import type { ReportLedgerMonthsTable, ReportOrderMonthsTable, ReportWatermarksTable } from '../modules/reports/tables.ts';
import type { ParticipantSignInsTable, SessionsTable } from '../modules/sessions/tables.ts';
import type { ClientSsoTable, SsoHandoffsTable, SsoLoginsTable, SsoSessionTokensTable, SsoSignoutsTable } from '../modules/sso/tables.ts';
import type {
  StaffEnrolmentsTable,
  StaffOidcLoginsTable,
  StaffOidcSubjectsTable,
  StaffPasskeysTable,
  StaffRecoveryCodesTable,
  StaffRolesTable,
  StaffSessionsTable,
  StaffTable,
} from '../modules/staff/tables.ts';
import type { WebhookDeliveriesTable, WebhookEndpointsTable, WebhookEventsTable } from '../modules/webhooks/tables.ts';
import type { ProgramApiPostingsTable } from '../modules/program-api/tables.ts';
import type { EarningRuleCountersTable, EarningRulesTable, EarningRuleVersionsTable } from '../modules/earning-rules/tables.ts';
import type { ClientEventTypesTable, ParticipantEventLinesTable, ParticipantEventsTable } from '../modules/events/tables.ts';

export interface Database {
  // clients, i18n
  clients: ClientsTable;
  client_hosts: ClientHostsTable;
  client_locales: ClientLocalesTable;
  translations: TranslationsTable;
  media_labels: MediaLabelsTable;
  // participants, ledger, sessions, limits
  participants: ParticipantsTable;
  participant_programs: ParticipantProgramsTable;
  ledger_entries: LedgerEntriesTable;
  sessions: SessionsTable;
  participant_sign_ins: ParticipantSignInsTable;
  attempt_limits: AttemptLimitsTable;
  // expiry
  point_lots: PointLotsTable;
  lot_consumptions: LotConsumptionsTable;
  expiry_notices: ExpiryNoticesTable;
  // background jobs
  job_leases: JobLeasesTable;
  jobs: JobsTable;
  job_slots: JobSlotsTable;
  import_lines: ImportLinesTable;
  import_rejects: ImportRejectsTable;
  // ots, catalog
  ots_codes: OtsCodesTable;
  ots_batches: OtsBatchesTable;
  client_catalogs: ClientCatalogsTable;
  catalog_partners: CatalogPartnersTable;
  catalog_orders: CatalogOrdersTable;
  catalog_punchouts: CatalogPunchoutsTable;
  // content, mail, account
  content_entries: ContentEntriesTable;
  contact_requests: ContactRequestsTable;
  mail_outbox: MailOutboxTable;
  password_resets: PasswordResetsTable;
  // audit, sso, launch-as
  audit_log: AuditLogTable;
  client_sso: ClientSsoTable;
  sso_logins: SsoLoginsTable;
  sso_handoffs: SsoHandoffsTable;
  sso_session_tokens: SsoSessionTokensTable;
  sso_signouts: SsoSignoutsTable;
  launch_tokens: LaunchTokensTable;
  admin_keys: AdminKeysTable;
  // API keys (decision 083)
  api_keys: ApiKeysTable;
  api_key_buckets: ApiKeyBucketsTable;
  api_key_scope_uses: ApiKeyScopeUsesTable;
  // staff
  staff: StaffTable;
  staff_roles: StaffRolesTable;
  staff_recovery_codes: StaffRecoveryCodesTable;
  staff_enrolments: StaffEnrolmentsTable;
  staff_sessions: StaffSessionsTable;
  staff_passkeys: StaffPasskeysTable;
  staff_oidc_logins: StaffOidcLoginsTable;
  staff_oidc_subjects: StaffOidcSubjectsTable;
  // reports (decision 067)
  report_watermarks: ReportWatermarksTable;
  report_ledger_months: ReportLedgerMonthsTable;
  report_order_months: ReportOrderMonthsTable;
  // webhooks (decision 084)
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  // the program API (decision 085)
  program_api_postings: ProgramApiPostingsTable;
  // earning rules (decision 095)
  earning_rules: EarningRulesTable;
  earning_rule_versions: EarningRuleVersionsTable;
  earning_rule_counters: EarningRuleCountersTable;
  // events in (decision 097)
  participant_events: ParticipantEventsTable;
  participant_event_lines: ParticipantEventLinesTable;
  // declared event types (decision 100)
  client_event_types: ClientEventTypesTable;
}
