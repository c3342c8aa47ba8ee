import { BrandColor, ClientName, type BrandingSettings, type LogoUpload } from '@rewards/contract/console-clients';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import type { Actor } from '../participants/operator-service.ts';
import { checkLogo, type StoredLogo } from './logo.ts';
import { logoVersion } from './service.ts';
import { auditSettingsChange } from './settings-audit.ts';
import { readClientColumns, updateClient } from './store.ts';

/**
 * A client's name, logo and brand colour from the console (issue 20 §3, docs/decisions/065). The
 * rules are the command's: ClientName and BrandColor of the contract, checkLogo of ./logo.ts, which
 * `rewards clients create|update` runs on its flags too.
 */

/** A value through the contract's rule, or a validation error naming it. */
function valid(schema: z.ZodType<string>, what: string, value: string): string {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw errors.validation(`${what}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

export interface BrandingChange {
  name?: string;
  brandColor?: string;
  logo?: StoredLogo;
}

/** The logo as the console sends it (base64 of the bytes), checked as the command checks a file. */
export function logoFromUpload(upload: LogoUpload): StoredLogo {
  // Strict base64: Buffer.from ignores what it cannot read, so a round trip proves the text was whole.
  const bytes = Buffer.from(upload.base64, 'base64');
  if (bytes.toString('base64').replace(/=+$/, '') !== upload.base64.replace(/=+$/, ''))
    throw errors.validation('the logo is not base64 of an .svg or .png file');
  return checkLogo('the logo', upload.type, bytes);
}

const toUpload = (logo: { logo: string; logo_type: StoredLogo['type'] }): LogoUpload => ({
  type: logo.logo_type,
  base64: logo.logo_type === 'image/png' ? logo.logo : Buffer.from(logo.logo, 'utf8').toString('base64'),
});

/** The branding as it is now (exact, not cached: the console shows what it changes); 404 for an unknown client. */
export async function readBranding(db: Db, clientId: string): Promise<BrandingSettings> {
  const row = await readClientColumns(db, clientId, ['name', 'brand_color', 'logo', 'logo_type', 'portal_url']);
  if (!row) throw errors.notFound();
  return { name: row.name, brandColor: row.brand_color, logo: toUpload(row), portalUrl: row.portal_url };
}

export interface BrandingOutcome {
  to: BrandingSettings;
  /** name, brandColor, logo: what changed. */
  changed: string[];
  /** Null when nothing changed (nothing written). */
  auditId: string | null;
}

/**
 * Sets what `change` names, checked again here (a caller other than the route gets the same rules),
 * with one audit entry `clients.settings` in the same transaction: name and colour from and to, the
 * logo as its short digest from and to (never the image). An unchanged set writes nothing. The
 * portal shows it within CLIENT_CACHE_SECONDS on every process (the configuration read cache).
 */
export async function setBranding(
  db: Db,
  actor: Actor,
  clientId: string,
  change: BrandingChange,
  reason?: string,
): Promise<BrandingOutcome> {
  const name = change.name === undefined ? undefined : valid(ClientName, 'the name', change.name);
  const brandColor = change.brandColor === undefined ? undefined : valid(BrandColor, 'the brand colour', change.brandColor);
  return db.transaction().execute(async (trx) => {
    const row = await readClientColumns(trx, clientId, ['name', 'brand_color', 'logo', 'logo_type']);
    if (!row) throw errors.notFound();
    const details: Record<string, { from: string; to: string }> = {};
    const columns: { name?: string; brand_color?: string; logo?: string; logo_type?: StoredLogo['type'] } = {};
    if (name !== undefined && name !== row.name) {
      details.name = { from: row.name, to: name };
      columns.name = name;
    }
    if (brandColor !== undefined && brandColor !== row.brand_color) {
      details.brandColor = { from: row.brand_color, to: brandColor };
      columns.brand_color = brandColor;
    }
    if (change.logo && (change.logo.data !== row.logo || change.logo.type !== row.logo_type)) {
      details.logo = { from: logoVersion(row.logo), to: logoVersion(change.logo.data) };
      columns.logo = change.logo.data;
      columns.logo_type = change.logo.type;
    }
    const changed = Object.keys(details);
    let auditId: string | null = null;
    if (changed.length > 0) {
      await updateClient(trx, clientId, columns);
      auditId = await auditSettingsChange(trx, actor, clientId, details, reason);
    }
    return { to: await readBranding(trx, clientId), changed, auditId };
  });
}
