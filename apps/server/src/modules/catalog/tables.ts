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
  /** When it was revoked (migration 035): its secret emptied, no catalog may name it again; null while in service. */
  revoked_at: string | null;
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
