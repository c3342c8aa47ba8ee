import type { Db } from '../../db/database.ts';
import { listCatalogPartners, readClientCatalogs } from '../../modules/catalog/service.ts';
import { listClientSummaries, listHosts, logoUrl, readClientLocales, readMediaLabels } from '../../modules/clients/service.ts';
import { listContentEntries } from '../../modules/content/service.ts';
import { countClientTranslations } from '../../modules/i18n/editing.ts';
import { countParticipantsByClient } from '../../modules/participants/operator-service.ts';
import { requireClient } from '../cli-context.ts';
import { expiryDescription } from './expiry.ts';

/**
 * Everything `clients show` prints about a client, read through the modules' services. Never a
 * secret: partner secrets exist only as hashes, and the SSO settings' secrets are not read here.
 */
export async function describeClient(db: Db, clientId: string) {
  const client = await requireClient(db, clientId);
  const [hosts, locales, labels, catalogs, partners, translations, entries, participants] = await Promise.all([
    listHosts(db, clientId),
    readClientLocales(db, clientId),
    readMediaLabels(db, clientId),
    readClientCatalogs(db, clientId),
    listCatalogPartners(db, clientId),
    countClientTranslations(db, clientId),
    listContentEntries(db, clientId),
    countParticipantsByClient(db, clientId),
  ]);
  const content = [...entries].sort((a, b) => (a.locale === b.locale ? (a.key < b.key ? -1 : 1) : a.locale < b.locale ? -1 : 1));
  const catalog = (kind: string) => {
    const row = catalogs.find((c) => c.kind === kind);
    return row ? { url: row.url, partnerId: row.partner_id } : null;
  };
  const travel = catalogs.find((c) => c.kind === 'travel');
  const contentByLocale: Record<string, string[]> = {};
  for (const entry of content) (contentByLocale[entry.locale] ??= []).push(entry.key);
  return {
    id: client.id,
    name: client.name,
    createdAt: client.created_at,
    origins: hosts.map((h) => h.hostname),
    portalUrl: client.portal_url,
    branding: {
      logo: {
        type: client.logo_type,
        bytes: client.logo_type === 'image/png' ? Buffer.from(client.logo, 'base64').length : Buffer.byteLength(client.logo),
        url: logoUrl(client.id, client.logo_type),
      },
      brandColor: client.brand_color,
    },
    defaultLocale: client.default_locale,
    locales: locales.map((l) => ({ code: l.code, dir: l.dir, name: l.name })),
    mediaLabels: Object.fromEntries(labels.map((l) => [l.locale, JSON.parse(l.forms) as Record<string, string>])),
    passwordRules: JSON.parse(client.password_rules) as Record<string, unknown>,
    activationFields: JSON.parse(client.activation_fields) as string[],
    catalogs: { merchandise: catalog('merchandise'), experiences: catalog('experiences'), travel: travel ? { url: travel.url } : null },
    catalogPartners: partners.map((p) => ({ id: p.id, name: p.name, createdAt: p.created_at, revokedAt: p.revoked_at })),
    supportEmail: client.support_email || null,
    privacyNoticeVersion: client.privacy_notice_version,
    agentDailyAdjustmentLimit: client.agent_daily_adjustment_limit,
    expiry: expiryDescription(client),
    sso: { type: client.sso_type, logoutType: client.sso_logout_type, clientSite: { name: client.site_name, url: client.site_url } },
    translations: Object.fromEntries(translations.map((t) => [t.locale, Number(t.count)])),
    content: contentByLocale,
    participants: participants.get(clientId) ?? 0,
  };
}

export type ClientDescription = Awaited<ReturnType<typeof describeClient>>;

/** The human form of `clients show`: one fact a line. */
export function formatClient(c: ClientDescription): string {
  const rules = c.passwordRules;
  const ruleWords = [
    `min ${String(rules.minLength)}`,
    `max ${String(rules.maxLength)}`,
    ...['requireUpper', 'requireLower', 'requireDigit', 'requireSymbol', 'notUsername'].filter((r) => rules[r] === true),
  ];
  const catalog = (value: { url: string; partnerId: string | null } | null) =>
    value ? `${value.url} (partner ${value.partnerId ?? '-'})` : 'none';
  const lines: Array<[string, string]> = [
    ['Client', `${c.id}  ${c.name}`],
    ['Created', c.createdAt],
    ['Origins', c.origins.join(', ') || 'none'],
    ['Portal address', `${c.portalUrl || 'none'} (links in mails)`],
    ['Logo', `${c.branding.logo.type}, ${c.branding.logo.bytes} bytes, served at ${c.branding.logo.url}`],
    ['Brand colour', c.branding.brandColor],
    ['Locales', c.locales.map((l) => `${l.code} (${l.dir}, ${l.name})${l.code === c.defaultLocale ? ' default' : ''}`).join(', ')],
    ...Object.entries(c.mediaLabels).map(([locale, forms]): [string, string] => [
      `Media label ${locale}`,
      Object.entries(forms)
        .map(([k, v]) => `${k}=${v}`)
        .join('; '),
    ]),
    ['Password rules', ruleWords.join(', ')],
    ['Activation', c.activationFields.join(', ') || 'none (no self-activation)'],
    ['Merchandise', catalog(c.catalogs.merchandise)],
    ['Experiences', catalog(c.catalogs.experiences)],
    ['Travel link', c.catalogs.travel?.url ?? 'none'],
    [
      'Catalog partners',
      c.catalogPartners
        .map((p) => `${p.id} (since ${p.createdAt.slice(0, 10)}${p.revokedAt ? `, revoked ${p.revokedAt.slice(0, 10)}` : ''})`)
        .join(', ') || 'none',
    ],
    ['Support email', c.supportEmail ?? 'none'],
    ['Privacy notice', `version ${c.privacyNoticeVersion}`],
    ["Agents' daily limit", `${c.agentDailyAdjustmentLimit} points per support agent per day (console adjustments)`],
    ['Points expiry', `${c.expiry.description} (--expiry ${c.expiry.expiry})`],
    ['Expiry mails', c.expiry.reminders],
    ['Single sign-on', `${c.sso.type}, logout ${c.sso.logoutType}, client site ${c.sso.clientSite.name} ${c.sso.clientSite.url}`],
    [
      'Translations',
      Object.entries(c.translations)
        .map(([l, n]) => `${l}: ${n}`)
        .join(', ') || 'none',
    ],
    [
      'Content',
      Object.entries(c.content)
        .map(([l, keys]) => `${l}: ${keys.join(', ')}`)
        .join(' · ') || 'none',
    ],
    ['Participants', String(c.participants)],
  ];
  const width = Math.max(...lines.map(([label]) => label.length));
  return lines.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n');
}

/** `clients list`: one line a client. */
export async function listClients(db: Db) {
  const [clients, hosts, counts] = await Promise.all([listClientSummaries(db), listHosts(db), countParticipantsByClient(db)]);
  return clients.map((c) => ({
    id: c.id,
    name: c.name,
    defaultLocale: c.default_locale,
    origins: hosts.filter((h) => h.client_id === c.id).map((h) => h.hostname),
    participants: counts.get(c.id) ?? 0,
    createdAt: c.created_at,
  }));
}
