import type { ColumnType } from 'kysely';

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
  /** The provider's ID token, sealed, on its way to the session (migration 014, decision 038). */
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
