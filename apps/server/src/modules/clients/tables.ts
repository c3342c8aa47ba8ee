import type { ColumnType, Selectable } from 'kysely';

/** A client (tenant) of the installation: its branding, rules and settings. */
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
  /** image/svg+xml (logo is the SVG text) | image/png (logo is the PNG as base64); defaults on insert (migration 010). */
  logo_type: ColumnType<LogoType, LogoType | undefined, LogoType>;
  /** Where the client's support desk is reached; '' when none is set; defaults on insert (migration 010). */
  support_email: ColumnType<string, string | undefined, string>;
  /**
   * The portal's origin (https://rewards.acme.example): every link in the client's mails starts there.
   * Required on insert: a client's mails cannot link without it (migration 017, decision 041).
   */
  portal_url: string;
  /** Points (credits and debits together) one support agent may adjust per day (migration 022, decision 048). */
  agent_daily_adjustment_limit: ColumnType<number, number | undefined, number>;
  /** JSON of the contract's ExpiryPolicy; `{"type":"none"}` by default (migration 025, decision 057). */
  expiry_policy: ColumnType<string, string | undefined, string>;
  /** IANA time zone: points expire at the end of a day there. */
  time_zone: ColumnType<string, string | undefined, string>;
  /** Days before an expiry when the reminder and the last-chance mail go out. */
  expiry_reminder_days: ColumnType<number, number | undefined, number>;
  expiry_last_chance_days: ColumnType<number, number | undefined, number>;
}
export type LogoType = 'image/svg+xml' | 'image/png';
export type Client = Selectable<ClientsTable>;

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

export interface MediaLabelsTable {
  client_id: string;
  locale: string;
  /** JSON of PluralForms. */
  forms: string;
}
