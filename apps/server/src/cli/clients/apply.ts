import type { PasswordRules } from '@rewards/contract';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { recordAudit } from '../../modules/audit/service.ts';
import { ensureCatalogPartner, renewPartnerSecret } from '../../modules/clients/catalog-settings.ts';
import { operatorOrigin } from '../commands/audit.ts';
import { CliError } from '../cli-context.ts';
import { productionOriginProblem } from '../../http/production-origins.ts';
import { placeholderLogo, type StoredLogo } from './logo.ts';
import { defaultPortalUrl, type LocaleSetting, type Offering, type PluralFormsSetting } from './settings.ts';

/** What one `clients create|update` asks for, every value already checked on its own (settings.ts). */
export interface ClientChange {
  name?: string;
  logo?: StoredLogo;
  brandColor?: string;
  addHosts: string[];
  removeHosts: string[];
  /** The whole list, in order, when given. */
  locales?: LocaleSetting[];
  defaultLocale?: string;
  mediaLabels: Array<{ locale: string; forms: PluralFormsSetting }>;
  passwordRules?: PasswordRules;
  activationFields?: string[];
  /** Per offering: a new address (null: the offering is withdrawn) and/or partner id. */
  catalogs: Partial<Record<Offering, { url?: string | null; partnerId?: string }>>;
  /** The travel link; null removes it. */
  travel?: string | null;
  /** Partner ids whose secret is replaced by a new one. */
  newPartnerSecrets: string[];
  supportEmail?: string;
  privacyNoticeVersion?: number;
  /** Where links in mails point; its host must be one of the client's (decision 041). */
  portalUrl?: string;
}

export interface ChangeOutcome {
  client: string;
  created: boolean;
  /** Names of the settings that changed (what the audit log records). */
  changed: string[];
  hostsAdded: string[];
  hostsRemoved: string[];
  /** New partner secrets: printed once, never stored (only their SHA-256 is). */
  secrets: Array<{ partnerId: string; secret: string }>;
}

const DEFAULT_BRAND_COLOR = '#1d4ed8';
const DEFAULT_RULES: PasswordRules = {
  minLength: 10,
  maxLength: 128,
  requireUpper: true,
  requireLower: true,
  requireDigit: true,
  requireSymbol: false,
  notUsername: true,
};

/**
 * Creates or changes a client in ONE transaction with its audit entry: every check that needs
 * the database runs inside it, so a refused change leaves everything as it was.
 */
export async function applyClientChange(
  db: Db,
  request: {
    mode: 'create' | 'update';
    clientId: string;
    change: ClientChange;
    operator: string;
    now?: Date;
    /** NODE_ENV=production: the portal address must be https unless on loopback (decision 081). */
    production?: boolean;
  },
): Promise<ChangeOutcome> {
  const { mode, clientId, change, operator } = request;
  const now = request.now ?? new Date();
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('clients').selectAll().where('id', '=', clientId).executeTakeFirst();
    if (mode === 'create' && existing) throw new CliError(`Client "${clientId}" already exists (use clients update)`);
    if (mode === 'update' && !existing) {
      const known = (await trx.selectFrom('clients').select('id').orderBy('id').execute()).map((c) => c.id);
      throw new CliError(`Unknown client "${clientId}" (known: ${known.join(', ') || 'none'})`);
    }
    const outcome: ChangeOutcome = {
      client: clientId,
      created: mode === 'create',
      changed: [],
      hostsAdded: [],
      hostsRemoved: [],
      secrets: [],
    };
    const changed = new Set<string>();
    // Each changed setting's before and after, for the audit (issue 20 §3); never a logo's bytes or a secret.
    const changes: Changes = {};
    const note = (field: string, from: unknown, to: unknown) => {
      changed.add(field);
      changes[field] = { from, to };
    };

    if (!existing) {
      if (!change.name) throw new CliError('--name is required to create a client');
      if (change.addHosts.length === 0) throw new CliError('at least one --origin is required to create a client');
      const locales = change.locales ?? [{ code: 'en-US', dir: 'ltr', name: 'English' }];
      const brandColor = change.brandColor ?? DEFAULT_BRAND_COLOR;
      const logo = change.logo ?? placeholderLogo(change.name, brandColor);
      await trx
        .insertInto('clients')
        .values({
          id: clientId,
          name: change.name,
          default_locale: change.defaultLocale ?? locales[0]?.code ?? 'en-US',
          logo: logo.data,
          logo_type: logo.type,
          brand_color: brandColor,
          privacy_notice_version: change.privacyNoticeVersion ?? 0,
          // Single sign-on is set by `clients sso`; until then participants sign in with a password.
          sso_type: 'login_only',
          sso_logout_type: 'login',
          site_name: change.name,
          site_url: `https://${change.addHosts[0]}`,
          portal_url: change.portalUrl ?? defaultPortalUrl(change.addHosts),
          password_rules: JSON.stringify(change.passwordRules ?? DEFAULT_RULES),
          activation_fields: JSON.stringify(change.activationFields ?? ['accountNumber', 'lastName']),
          countries: '[]',
          support_email: change.supportEmail ?? '',
          created_at: now.toISOString(),
        })
        .execute();
      await replaceLocales(trx, clientId, locales);
      for (const field of [
        'name',
        'logo',
        'brandColor',
        'locales',
        'defaultLocale',
        'passwordRules',
        'activationFields',
        'supportEmail',
        'privacyNoticeVersion',
        'portalUrl',
      ])
        changed.add(field);
    } else {
      const columns: Record<string, string | number> = {};
      const set = (field: string, column: string, value: string | number | undefined, current: string | number, json = false) => {
        if (value === undefined || value === current) return;
        columns[column] = value;
        const shown = (v: string | number): unknown => (json ? JSON.parse(String(v)) : v);
        note(field, shown(current), shown(value));
      };
      set('name', 'name', change.name, existing.name);
      if (change.logo && (change.logo.data !== existing.logo || change.logo.type !== existing.logo_type)) {
        columns.logo = change.logo.data;
        columns.logo_type = change.logo.type;
        note('logo', logoFacts(existing.logo, existing.logo_type), logoFacts(change.logo.data, change.logo.type));
      }
      set('brandColor', 'brand_color', change.brandColor, existing.brand_color);
      set('defaultLocale', 'default_locale', change.defaultLocale, existing.default_locale);
      set('passwordRules', 'password_rules', change.passwordRules && JSON.stringify(change.passwordRules), existing.password_rules, true);
      set(
        'activationFields',
        'activation_fields',
        change.activationFields && JSON.stringify(change.activationFields),
        existing.activation_fields,
        true,
      );
      set('supportEmail', 'support_email', change.supportEmail, existing.support_email);
      set('privacyNoticeVersion', 'privacy_notice_version', change.privacyNoticeVersion, existing.privacy_notice_version);
      set('portalUrl', 'portal_url', change.portalUrl, existing.portal_url);
      if (Object.keys(columns).length > 0) await trx.updateTable('clients').set(columns).where('id', '=', clientId).execute();
      if (change.locales) {
        const before = await trx
          .selectFrom('client_locales')
          .select(['code', 'dir', 'name'])
          .where('client_id', '=', clientId)
          .orderBy('position')
          .execute();
        if (JSON.stringify(before) !== JSON.stringify(change.locales.map(({ code, dir, name }) => ({ code, dir, name })))) {
          await replaceLocales(trx, clientId, change.locales);
          // A label of a language no longer offered would never be shown.
          await trx
            .deleteFrom('media_labels')
            .where('client_id', '=', clientId)
            .where(
              'locale',
              'not in',
              change.locales.map((l) => l.code),
            )
            .execute();
          note(
            'locales',
            before.map((l) => l.code),
            change.locales.map((l) => l.code),
          );
        }
      }
    }

    await checkDefaultLocale(trx, clientId, change.defaultLocale !== undefined);
    await changeHosts(trx, clientId, change, outcome);
    if (outcome.hostsAdded.length + outcome.hostsRemoved.length > 0) changed.add('origins');
    await checkPortalHost(trx, clientId, change.portalUrl !== undefined, request.production ?? false);
    const labels = await changeMediaLabels(trx, clientId, change.mediaLabels);
    if (Object.keys(labels).length > 0) note('mediaLabels', labels.from, labels.to);
    await changeCatalogs(trx, clientId, change, outcome, note, now);

    outcome.changed = [...changed];
    await recordAudit(
      trx,
      {
        clientId,
        actor: operator,
        actorKind: 'operator',
        action: mode === 'create' ? 'clients.create' : 'clients.update',
        subject: clientId,
        // Field names, host names and an update's before and after: never a logo's bytes or a secret.
        details: {
          fields: outcome.changed,
          ...(mode === 'update' ? { changes } : {}),
          ...(outcome.hostsAdded.length > 0 ? { originsAdded: outcome.hostsAdded } : {}),
          ...(outcome.hostsRemoved.length > 0 ? { originsRemoved: outcome.hostsRemoved } : {}),
          ...(outcome.secrets.length > 0 ? { partnerSecretsIssued: outcome.secrets.map((s) => s.partnerId) } : {}),
        },
        origin: operatorOrigin,
      },
      now,
    );
    return outcome;
  });
}

async function replaceLocales(trx: Transaction<Database>, clientId: string, locales: LocaleSetting[]): Promise<void> {
  await trx.deleteFrom('client_locales').where('client_id', '=', clientId).execute();
  await trx
    .insertInto('client_locales')
    .values(locales.map((l, index) => ({ client_id: clientId, code: l.code, dir: l.dir, name: l.name, position: index + 1 })))
    .execute();
}

async function clientLocaleCodes(trx: Transaction<Database>, clientId: string): Promise<string[]> {
  return (await trx.selectFrom('client_locales').select('code').where('client_id', '=', clientId).orderBy('position').execute()).map(
    (r) => r.code,
  );
}

async function checkDefaultLocale(trx: Transaction<Database>, clientId: string, given: boolean): Promise<void> {
  const client = await trx.selectFrom('clients').select('default_locale').where('id', '=', clientId).executeTakeFirstOrThrow();
  const codes = await clientLocaleCodes(trx, clientId);
  if (codes.includes(client.default_locale)) return;
  if (given) throw new CliError(`--default-locale: ${client.default_locale} is not one of the client's locales (${codes.join(', ')})`);
  throw new CliError(
    `the default locale ${client.default_locale} would not be one of the locales (${codes.join(', ')}); add --default-locale`,
  );
}

async function changeHosts(trx: Transaction<Database>, clientId: string, change: ClientChange, outcome: ChangeOutcome): Promise<void> {
  for (const hostname of new Set(change.removeHosts)) {
    const row = await trx.selectFrom('client_hosts').select('client_id').where('hostname', '=', hostname).executeTakeFirst();
    if (row?.client_id !== clientId) throw new CliError(`--remove-origin: ${hostname} is not an origin of ${clientId}`);
    await trx.deleteFrom('client_hosts').where('hostname', '=', hostname).execute();
    outcome.hostsRemoved.push(hostname);
  }
  for (const hostname of new Set(change.addHosts)) {
    const row = await trx.selectFrom('client_hosts').select('client_id').where('hostname', '=', hostname).executeTakeFirst();
    if (row && row.client_id !== clientId) throw new CliError(`--origin: ${hostname} already belongs to client ${row.client_id}`);
    if (row) continue;
    await trx.insertInto('client_hosts').values({ hostname, client_id: clientId }).execute();
    outcome.hostsAdded.push(hostname);
  }
  const left = await trx.selectFrom('client_hosts').select('hostname').where('client_id', '=', clientId).executeTakeFirst();
  if (!left) throw new CliError(`${clientId} would have no origin left: its portal could not be reached`);
}

/**
 * The portal address must open this client: the page there sends its own origin as client-id,
 * so a host of another client (or of none) would answer every link with unknownClient.
 */
async function checkPortalHost(trx: Transaction<Database>, clientId: string, given: boolean, production: boolean): Promise<void> {
  const { portal_url: portalUrl } = await trx
    .selectFrom('clients')
    .select('portal_url')
    .where('id', '=', clientId)
    .executeTakeFirstOrThrow();
  const hosts = (await trx.selectFrom('client_hosts').select('hostname').where('client_id', '=', clientId).execute()).map(
    (h) => h.hostname,
  );
  let host = '';
  try {
    host = new URL(portalUrl).hostname.toLowerCase();
  } catch {
    // A row written by hand; refused below like a foreign host.
  }
  if (hosts.includes(host)) {
    // A production start refuses an http portal address (main.ts), so it is refused here first.
    const problem = production ? productionOriginProblem(portalUrl) : undefined;
    if (problem) throw new CliError(`${given ? '--portal-url' : `the portal address ${portalUrl}`}: ${problem}`);
    return;
  }
  if (given) throw new CliError(`--portal-url: ${host || portalUrl} is not an origin of ${clientId} (add it with --origin)`);
  throw new CliError(
    `the portal address ${portalUrl || '(none)'} would not open ${clientId} (origins: ${hosts.join(', ')}); give --portal-url too`,
  );
}

/** True when a label changed. Each given locale's forms replace the ones it had. */
/** Writes the given labels; returns the changed ones' forms before and after, by locale (empty if none changed). */
async function changeMediaLabels(
  trx: Transaction<Database>,
  clientId: string,
  labels: ClientChange['mediaLabels'],
): Promise<{ from?: Record<string, unknown>; to?: Record<string, unknown> }> {
  const from: Record<string, unknown> = {};
  const to: Record<string, unknown> = {};
  if (labels.length === 0) return {};
  const codes = await clientLocaleCodes(trx, clientId);
  for (const label of labels) {
    if (!codes.includes(label.locale))
      throw new CliError(`--media-label: ${label.locale} is not one of the client's locales (${codes.join(', ')})`);
    const forms = JSON.stringify(label.forms);
    const row = await trx
      .selectFrom('media_labels')
      .select('forms')
      .where('client_id', '=', clientId)
      .where('locale', '=', label.locale)
      .executeTakeFirst();
    if (row?.forms === forms) continue;
    if (row)
      await trx.updateTable('media_labels').set({ forms }).where('client_id', '=', clientId).where('locale', '=', label.locale).execute();
    else await trx.insertInto('media_labels').values({ client_id: clientId, locale: label.locale, forms }).execute();
    from[label.locale] = row ? JSON.parse(row.forms) : null;
    to[label.locale] = label.forms;
  }
  return Object.keys(to).length > 0 ? { from, to } : {};
}

async function changeCatalogs(
  trx: Transaction<Database>,
  clientId: string,
  change: ClientChange,
  outcome: ChangeOutcome,
  note: (field: string, from: unknown, to: unknown) => void,
  now: Date,
): Promise<void> {
  const issued = new Set<string>();
  const ensurePartner = async (kind: string, partnerId: string) => {
    const secret = await ensureCatalogPartner(trx, clientId, partnerId, `--${kind}-partner`, now);
    if (!secret) return;
    outcome.secrets.push(secret);
    issued.add(partnerId);
  };
  const upsertCatalog = async (kind: string, url: string, partnerId: string | null) => {
    await trx.deleteFrom('client_catalogs').where('client_id', '=', clientId).where('kind', '=', kind).execute();
    await trx.insertInto('client_catalogs').values({ client_id: clientId, kind, url, partner_id: partnerId }).execute();
  };

  for (const [kind, wanted] of Object.entries(change.catalogs)) {
    if (!wanted) continue;
    const current = await trx
      .selectFrom('client_catalogs')
      .select(['url', 'partner_id'])
      .where('client_id', '=', clientId)
      .where('kind', '=', kind)
      .executeTakeFirst();
    if (wanted.url === null) {
      if (wanted.partnerId) throw new CliError(`--${kind}-partner makes no sense with --${kind} none`);
      if (current) {
        await trx.deleteFrom('client_catalogs').where('client_id', '=', clientId).where('kind', '=', kind).execute();
        note(`catalogs.${kind}`, { url: current.url, partnerId: current.partner_id }, null);
      }
      continue;
    }
    const url = wanted.url ?? current?.url;
    const partnerId = wanted.partnerId ?? current?.partner_id ?? undefined;
    if (!url || !partnerId) throw new CliError(`a ${kind} catalog needs both --${kind} <url> and --${kind}-partner <id>`);
    await ensurePartner(kind, partnerId);
    if (current?.url === url && current.partner_id === partnerId) continue;
    await upsertCatalog(kind, url, partnerId);
    note(`catalogs.${kind}`, current ? { url: current.url, partnerId: current.partner_id } : null, { url, partnerId });
  }
  if (change.travel !== undefined) {
    const current = await trx
      .selectFrom('client_catalogs')
      .select('url')
      .where('client_id', '=', clientId)
      .where('kind', '=', 'travel')
      .executeTakeFirst();
    if (change.travel === null && current) {
      await trx.deleteFrom('client_catalogs').where('client_id', '=', clientId).where('kind', '=', 'travel').execute();
      note('catalogs.travel', current.url, null);
    } else if (change.travel !== null && current?.url !== change.travel) {
      await upsertCatalog('travel', change.travel, null);
      note('catalogs.travel', current?.url ?? null, change.travel);
    }
  }
  for (const partnerId of new Set(change.newPartnerSecrets)) {
    if (issued.has(partnerId)) continue;
    const partner = await trx.selectFrom('catalog_partners').select('client_id').where('id', '=', partnerId).executeTakeFirst();
    if (partner?.client_id !== clientId) throw new CliError(`--new-partner-secret: ${partnerId} is not a catalog partner of ${clientId}`);
    outcome.secrets.push({ partnerId, secret: await renewPartnerSecret(trx, clientId, partnerId) });
  }
  // Which partners got a new secret is in the audit's details; the secret itself never is.
  if (outcome.secrets.length > 0)
    note(
      'partnerSecrets',
      null,
      outcome.secrets.map((s) => s.partnerId),
    );
}

type Changes = Record<string, { from: unknown; to: unknown }>;

/** What the audit says of a logo: its type and size, never its bytes. */
function logoFacts(data: string, type: string): { type: string; length: number } {
  return { type, length: data.length };
}
