import type { PasswordRules } from '@rewards/contract';
import type { LocaleSetting, PartnerSecret } from '@rewards/contract/console-clients';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import { productionOriginProblem } from '../../http/production-origins.ts';
import type { Actor } from '../participants/operator-service.ts';
import { ensureCatalogPartner, renewPartnerSecret } from './catalog-settings.ts';
import { placeholderLogo, type StoredLogo } from './logo.ts';
import type { PluralFormsSetting } from './media-labels.ts';
import { auditClientChange } from './settings-audit.ts';
import { findCatalogPartner, readClientCatalogs, setClientCatalog } from '../catalog/service.ts';
import {
  deleteHost,
  deleteMediaLabelsOutside,
  hostOwner,
  insertClient,
  insertHost,
  listClientIds,
  listHosts,
  readClient,
  readClientLocales,
  readMediaLabels,
  replaceClientLocales,
  saveMediaLabel,
  updateClient,
} from './store.ts';

/*
 * Creating a client and changing any of its settings in one transaction with one audit entry
 * (decision 089): `rewards clients create|update` calls it with the values of its flags, each
 * already checked on its own by the module's rules (logo.ts, locale-settings.ts, program-settings.ts,
 * media-labels.ts, catalog-settings.ts), the same the console's section PUTs run. Every check that
 * needs the database runs here, inside the transaction, so a refused change leaves everything as it was.
 */

export type Offering = 'merchandise' | 'experiences';

/** What one create or update asks for. */
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
  /** New partner secrets: returned once, never stored (only their SHA-256 is). */
  secrets: PartnerSecret[];
}

/**
 * How the refusals name what the caller gave: the command names its flags (`--portal-url`), which
 * is what an operator types again; another caller passes its own words.
 */
export interface ChangeWording {
  name: string;
  origin: string;
  removeOrigin: string;
  defaultLocale: string;
  portalUrl: string;
  mediaLabel: string;
  newPartnerSecret: string;
  catalog: (kind: Offering) => string;
  partner: (kind: Offering) => string;
  /** How to change an existing client instead. */
  update: string;
}

export const PLAIN_WORDING: ChangeWording = {
  name: 'the name',
  origin: 'the origin',
  removeOrigin: 'the origin to remove',
  defaultLocale: 'the default locale',
  portalUrl: 'the portal address',
  mediaLabel: 'the media label',
  newPartnerSecret: 'the partner',
  catalog: (kind) => `the ${kind} catalog`,
  partner: (kind) => `the ${kind} partner`,
  update: 'change its settings',
};

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

const LOCAL_HOST = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/;
const isAddress = (host: string) => /^[\d.]+$/.test(host) || host.startsWith('[');

/**
 * A new client's portal address when none is given: its first public host (names before
 * addresses) over https; with only loopback hosts, the first such name on the default port over
 * http (a local set-up like the demo's). Migration 017 gave older clients the same.
 */
export function defaultPortalUrl(hosts: readonly string[]): string {
  const sorted = [...hosts].sort();
  const first = (list: string[]) => list.find((host) => !isAddress(host)) ?? list[0];
  const publicHost = first(sorted.filter((host) => !LOCAL_HOST.test(host)));
  if (publicHost) return `https://${publicHost}`;
  return `http://${first(sorted) ?? 'localhost'}:3000`;
}

type Changes = Record<string, { from: unknown; to: unknown }>;
type Note = (field: string, from: unknown, to: unknown) => void;

/** Creates or changes a client in ONE transaction with its audit entry (`clients.create` or `clients.update`). */
export async function applyClientChange(
  db: Db,
  actor: Actor,
  request: {
    mode: 'create' | 'update';
    clientId: string;
    change: ClientChange;
    now?: Date;
    /** NODE_ENV=production: the portal address must be https unless on loopback (decision 081). */
    production?: boolean;
    wording?: ChangeWording;
  },
): Promise<ChangeOutcome> {
  const { mode, clientId, change } = request;
  const words = request.wording ?? PLAIN_WORDING;
  const now = request.now ?? new Date();
  return db.transaction().execute(async (trx) => {
    const existing = await readClient(trx, clientId);
    if (mode === 'create' && existing) throw errors.validation(`Client "${clientId}" already exists (${words.update})`);
    if (mode === 'update' && !existing) throw await unknownClient(trx, clientId);
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
    const note: Note = (field, from, to) => {
      changed.add(field);
      changes[field] = { from, to };
    };

    if (!existing) {
      await createRow(trx, clientId, change, words, now);
      for (const field of CREATED_FIELDS) changed.add(field);
    } else {
      await changeRow(trx, existing, change, note);
      if (change.locales) await changeLocales(trx, clientId, change.locales, note);
    }

    await checkDefaultLocale(trx, clientId, change.defaultLocale !== undefined, words);
    await changeHosts(trx, clientId, change, outcome, words);
    if (outcome.hostsAdded.length + outcome.hostsRemoved.length > 0) changed.add('origins');
    await checkPortalHost(trx, clientId, change.portalUrl !== undefined, request.production ?? false, words);
    const labels = await changeMediaLabels(trx, clientId, change.mediaLabels, words);
    if (labels) note('mediaLabels', labels.from, labels.to);
    await changeCatalogs(trx, clientId, change, outcome, note, now, words);

    outcome.changed = [...changed];
    // Field names, host names and an update's before and after: never a logo's bytes or a secret.
    await auditClientChange(
      trx,
      actor,
      mode,
      clientId,
      {
        fields: outcome.changed,
        ...(mode === 'update' ? { changes } : {}),
        ...(outcome.hostsAdded.length > 0 ? { originsAdded: outcome.hostsAdded } : {}),
        ...(outcome.hostsRemoved.length > 0 ? { originsRemoved: outcome.hostsRemoved } : {}),
        ...(outcome.secrets.length > 0 ? { partnerSecretsIssued: outcome.secrets.map((s) => s.partnerId) } : {}),
      },
      now,
    );
    return outcome;
  });
}

/** A refusal naming the clients there are (an operator may have mistyped the id). */
export async function unknownClient(db: Db, clientId: string) {
  const known = await listClientIds(db);
  return errors.validation(`Unknown client "${clientId}" (known: ${known.join(', ') || 'none'})`);
}

const CREATED_FIELDS = [
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
];

async function createRow(trx: Db, clientId: string, change: ClientChange, words: ChangeWording, now: Date): Promise<void> {
  if (!change.name) throw errors.validation(`${words.name} is required to create a client`);
  if (change.addHosts.length === 0) throw errors.validation(`at least one ${words.origin} is required to create a client`);
  const locales = change.locales ?? [{ code: 'en-US', dir: 'ltr', name: 'English' }];
  const brandColor = change.brandColor ?? DEFAULT_BRAND_COLOR;
  const logo = change.logo ?? placeholderLogo(change.name, brandColor);
  await insertClient(trx, {
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
  });
  await replaceClientLocales(trx, clientId, locales);
}

type ClientRow = NonNullable<Awaited<ReturnType<typeof readClient>>>;

/** The columns of the clients row that the change names and that differ. */
async function changeRow(trx: Db, existing: ClientRow, change: ClientChange, note: Note): Promise<void> {
  const columns: Record<string, string | number> = {};
  const set = (field: string, column: keyof ClientRow, value: string | number | undefined, json = false) => {
    const current = existing[column] as string | number;
    if (value === undefined || value === current) return;
    columns[column] = value;
    const shown = (v: string | number): unknown => (json ? JSON.parse(String(v)) : v);
    note(field, shown(current), shown(value));
  };
  set('name', 'name', change.name);
  if (change.logo && (change.logo.data !== existing.logo || change.logo.type !== existing.logo_type)) {
    columns.logo = change.logo.data;
    columns.logo_type = change.logo.type;
    note('logo', logoFacts(existing.logo, existing.logo_type), logoFacts(change.logo.data, change.logo.type));
  }
  set('brandColor', 'brand_color', change.brandColor);
  set('defaultLocale', 'default_locale', change.defaultLocale);
  set('passwordRules', 'password_rules', change.passwordRules && JSON.stringify(change.passwordRules), true);
  set('activationFields', 'activation_fields', change.activationFields && JSON.stringify(change.activationFields), true);
  set('supportEmail', 'support_email', change.supportEmail);
  set('privacyNoticeVersion', 'privacy_notice_version', change.privacyNoticeVersion);
  set('portalUrl', 'portal_url', change.portalUrl);
  await updateClient(trx, existing.id, columns);
}

async function changeLocales(trx: Db, clientId: string, locales: LocaleSetting[], note: Note): Promise<void> {
  const before = await readClientLocales(trx, clientId);
  if (JSON.stringify(before) === JSON.stringify(locales.map(({ code, dir, name }) => ({ code, dir, name })))) return;
  await replaceClientLocales(trx, clientId, locales);
  // A label of a language no longer offered would never be shown.
  await deleteMediaLabelsOutside(
    trx,
    clientId,
    locales.map((l) => l.code),
  );
  note(
    'locales',
    before.map((l) => l.code),
    locales.map((l) => l.code),
  );
}

async function clientLocaleCodes(trx: Db, clientId: string): Promise<string[]> {
  return (await readClientLocales(trx, clientId)).map((r) => r.code);
}

async function checkDefaultLocale(trx: Db, clientId: string, given: boolean, words: ChangeWording): Promise<void> {
  const client = await readClient(trx, clientId);
  const defaultLocale = client?.default_locale ?? '';
  const codes = await clientLocaleCodes(trx, clientId);
  if (codes.includes(defaultLocale)) return;
  if (given) throw errors.validation(`${words.defaultLocale}: ${defaultLocale} is not one of the client's locales (${codes.join(', ')})`);
  throw errors.validation(
    `the default locale ${defaultLocale} would not be one of the locales (${codes.join(', ')}); add ${words.defaultLocale}`,
  );
}

async function changeHosts(trx: Db, clientId: string, change: ClientChange, outcome: ChangeOutcome, words: ChangeWording): Promise<void> {
  for (const hostname of new Set(change.removeHosts)) {
    if ((await hostOwner(trx, hostname)) !== clientId)
      throw errors.validation(`${words.removeOrigin}: ${hostname} is not an origin of ${clientId}`);
    await deleteHost(trx, hostname);
    outcome.hostsRemoved.push(hostname);
  }
  for (const hostname of new Set(change.addHosts)) {
    const owner = await hostOwner(trx, hostname);
    if (owner !== undefined && owner !== clientId)
      throw errors.validation(`${words.origin}: ${hostname} already belongs to client ${owner}`);
    if (owner) continue;
    await insertHost(trx, clientId, hostname);
    outcome.hostsAdded.push(hostname);
  }
  if ((await listHosts(trx, clientId)).length === 0)
    throw errors.validation(`${clientId} would have no origin left: its portal could not be reached`);
}

/**
 * The portal address must open this client: the page there sends its own origin as client-id,
 * so a host of another client (or of none) would answer every link with unknownClient.
 */
async function checkPortalHost(trx: Db, clientId: string, given: boolean, production: boolean, words: ChangeWording): Promise<void> {
  const portalUrl = (await readClient(trx, clientId))?.portal_url ?? '';
  const hosts = (await listHosts(trx, clientId)).map((h) => h.hostname);
  let host = '';
  try {
    host = new URL(portalUrl).hostname.toLowerCase();
  } catch {
    // A row written by hand; refused below like a foreign host.
  }
  if (hosts.includes(host)) {
    // A production start refuses an http portal address (main.ts), so it is refused here first.
    const problem = production ? productionOriginProblem(portalUrl) : undefined;
    if (problem) throw errors.validation(`${given ? words.portalUrl : `the portal address ${portalUrl}`}: ${problem}`);
    return;
  }
  if (given)
    throw errors.validation(`${words.portalUrl}: ${host || portalUrl} is not an origin of ${clientId} (add it with ${words.origin})`);
  throw errors.validation(
    `the portal address ${portalUrl || '(none)'} would not open ${clientId} (origins: ${hosts.join(', ')}); give ${words.portalUrl} too`,
  );
}

/** Writes the given labels (each given locale's forms replace the ones it had); the changed ones' forms before and after, by locale. */
async function changeMediaLabels(
  trx: Db,
  clientId: string,
  labels: ClientChange['mediaLabels'],
  words: ChangeWording,
): Promise<{ from: Record<string, unknown>; to: Record<string, unknown> } | undefined> {
  if (labels.length === 0) return undefined;
  const from: Record<string, unknown> = {};
  const to: Record<string, unknown> = {};
  const codes = await clientLocaleCodes(trx, clientId);
  const current = new Map((await readMediaLabels(trx, clientId)).map((l) => [l.locale, l.forms]));
  for (const label of labels) {
    if (!codes.includes(label.locale))
      throw errors.validation(`${words.mediaLabel}: ${label.locale} is not one of the client's locales (${codes.join(', ')})`);
    const forms = JSON.stringify(label.forms);
    const before = current.get(label.locale);
    if (before === forms) continue;
    await saveMediaLabel(trx, clientId, label.locale, forms, before !== undefined);
    current.set(label.locale, forms);
    from[label.locale] = before === undefined ? null : (JSON.parse(before) as unknown);
    to[label.locale] = label.forms;
  }
  return Object.keys(to).length > 0 ? { from, to } : undefined;
}

async function changeCatalogs(
  trx: Db,
  clientId: string,
  change: ClientChange,
  outcome: ChangeOutcome,
  note: Note,
  now: Date,
  words: ChangeWording,
): Promise<void> {
  const issued = new Set<string>();
  const catalogs = await readClientCatalogs(trx, clientId);
  const currentOf = (kind: string) => catalogs.find((c) => c.kind === kind);

  for (const [kind, wanted] of Object.entries(change.catalogs) as Array<[Offering, ClientChange['catalogs'][Offering]]>) {
    if (!wanted) continue;
    const current = currentOf(kind);
    if (wanted.url === null) {
      if (wanted.partnerId) throw errors.validation(`${words.partner(kind)} makes no sense with ${words.catalog(kind)} none`);
      if (current) {
        await setClientCatalog(trx, clientId, kind, null);
        note(`catalogs.${kind}`, { url: current.url, partnerId: current.partner_id }, null);
      }
      continue;
    }
    const url = wanted.url ?? current?.url;
    const partnerId = wanted.partnerId ?? current?.partner_id ?? undefined;
    if (!url || !partnerId)
      throw errors.validation(`a ${kind} catalog needs both ${words.catalog(kind)} <url> and ${words.partner(kind)} <id>`);
    const secret = await ensureCatalogPartner(trx, clientId, partnerId, words.partner(kind), now);
    if (secret) {
      outcome.secrets.push(secret);
      issued.add(partnerId);
    }
    if (current?.url === url && current.partner_id === partnerId) continue;
    await setClientCatalog(trx, clientId, kind, { url, partnerId });
    note(`catalogs.${kind}`, current ? { url: current.url, partnerId: current.partner_id } : null, { url, partnerId });
  }
  if (change.travel !== undefined) {
    const current = currentOf('travel');
    if (change.travel === null && current) {
      await setClientCatalog(trx, clientId, 'travel', null);
      note('catalogs.travel', current.url, null);
    } else if (change.travel !== null && current?.url !== change.travel) {
      await setClientCatalog(trx, clientId, 'travel', { url: change.travel, partnerId: null });
      note('catalogs.travel', current?.url ?? null, change.travel);
    }
  }
  for (const partnerId of new Set(change.newPartnerSecrets)) {
    if (issued.has(partnerId)) continue;
    if ((await findCatalogPartner(trx, partnerId))?.client_id !== clientId)
      throw errors.validation(`${words.newPartnerSecret}: ${partnerId} is not a catalog partner of ${clientId}`);
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

/** What the audit says of a logo: its type and size, never its bytes. */
function logoFacts(data: string, type: string): { type: string; length: number } {
  return { type, length: data.length };
}
