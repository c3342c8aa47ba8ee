import { ACTIVATION_FIELDS } from '@rewards/contract';
import type { Command } from 'commander';
import { CONTENT_LAYOUT, formatContentReport, importContent } from '../clients/content.ts';
import { describeClient, formatClient, listClients } from '../clients/describe.ts';
import {
  applyExpiryFlags,
  checkExpiryFlags,
  expiryChangeFrom,
  expiryOptions,
  formatExpiryOutcome,
  type ExpiryOptions,
} from '../clients/expiry.ts';
import { readLogo } from '../clients/logo.ts';
import {
  BrandColor,
  CatalogUrl,
  ClientId,
  ClientName,
  OFFERINGS,
  OriginHost,
  PartnerId,
  PortalUrl,
  PrivacyNoticeVersion,
  SupportEmail,
  canonicalLocale,
  parseActivationFields,
  parseFlag,
  parseLocale,
  parseMediaLabel,
  parsePasswordRules,
} from '../clients/settings.ts';
import { formatTranslationsReport, importTranslations } from '../clients/translations.ts';
import { loadConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { action, CliError, repeatable, requireClient, wholeNumber } from '../cli-context.ts';
import { applyClientChange, type ChangeOutcome, type ChangeWording, type ClientChange } from '../../modules/clients/client-change.ts';
import { MAX_AGENT_DAILY_LIMIT, setAgentDailyLimit } from '../../modules/clients/console-settings.ts';
import { revokePartner } from '../../modules/clients/catalog-settings.ts';
import { removeTranslation } from '../../modules/i18n/editing.ts';
import { removeContentEntry } from '../../modules/content/editing.ts';
import { operatorActor } from './audit.ts';

/** The flags of `clients create` and `clients update`, as commander hands them over. */
interface SettingsOptions extends ExpiryOptions {
  client?: string;
  name?: string;
  logo?: string;
  brandColor?: string;
  origin?: string[];
  removeOrigin?: string[];
  locale?: string[];
  defaultLocale?: string;
  mediaLabel?: string[];
  passwordRules?: string;
  activationFields?: string;
  merchandise?: string;
  merchandisePartner?: string;
  experiences?: string;
  experiencesPartner?: string;
  travel?: string;
  newPartnerSecret?: string[];
  supportEmail?: string;
  privacyNoticeVersion?: string;
  portalUrl?: string;
  /** update only: the agents' daily adjustment limit (decision 048). */
  agentDailyLimit?: string;
}

const MAX_REPEATED = 20;

/** The module's refusals name the flags an operator gives. */
const FLAG_WORDING: ChangeWording = {
  name: '--name',
  origin: '--origin',
  removeOrigin: '--remove-origin',
  defaultLocale: '--default-locale',
  portalUrl: '--portal-url',
  mediaLabel: '--media-label',
  newPartnerSecret: '--new-partner-secret',
  catalog: (kind) => `--${kind}`,
  partner: (kind) => `--${kind}-partner`,
  update: 'use clients update',
};

function settingsOptions(command: Command, mode: 'create' | 'update'): Command {
  command
    .option('--client <id>', mode === 'create' ? "the new client's id: 2-40 of a-z, 0-9, -" : 'the client to change')
    .option('--name <text>', "the program's name, shown in the header and mails")
    .option('--logo <file>', 'an .svg or .png of at most 256 KB (PNG: at most 4096 px a side)')
    .option('--brand-color <#rrggbb>', 'the brand colour')
    .option(
      '--origin <origin>',
      `${mode === 'create' ? 'an' : 'add an'} origin that opens this client, e.g. https://rewards.example.com or 127.0.0.2:3000 (repeatable; a host name of another client is refused)`,
      repeatable,
    )
    .option(
      '--portal-url <origin>',
      `where links in mails point, e.g. https://rewards.example.com; its host must be one of the origins${mode === 'create' ? ' (default: https:// and the first public origin; with only local ones, http://<name>:3000)' : ''}`,
    );
  if (mode === 'update') {
    command
      .option('--remove-origin <origin>', 'stop serving this client at an origin (repeatable)', repeatable)
      .option(
        '--agent-daily-limit <points>',
        `the points (credits and debits together) one support agent may adjust per day in the console, 0 to ${MAX_AGENT_DAILY_LIMIT} (default 1000)`,
      );
  }
  expiryOptions(command);
  return command
    .option(
      '--locale <code[:dir[:name]]>',
      'a language offered, e.g. fr-FR or ar:rtl:العربية; repeat for each, in menu order: the list replaces the current one',
      repeatable,
    )
    .option('--default-locale <code>', 'the language shown first; one of the locales')
    .option(
      '--media-label <locale:forms>',
      'what the points are called in a locale, by plural form: "fr-FR:one=point Nimbus;many=de points Nimbus;other=points Nimbus" (forms of Intl.PluralRules for that locale, other required; repeatable)',
      repeatable,
    )
    .option(
      '--password-rules <rules>',
      'the whole rule set: "min=10,max=128,upper,lower,digit,symbol,not-username" (rules not named are off; max at most 200)',
    )
    .option(
      '--activation-fields <fields>',
      `facts activation asks for: ${ACTIVATION_FIELDS.join(',')} (accountNumber or userName needed), or none`,
    )
    .option('--merchandise <url>', 'the merchandise catalog (http(s) URL or a path on the portal), or none to withdraw it')
    .option('--merchandise-partner <id>', 'its partner id; a new one gets a secret, printed once')
    .option('--experiences <url>', 'the experiences catalog, or none')
    .option('--experiences-partner <id>', 'its partner id; a new one gets a secret, printed once')
    .option('--travel <url>', 'the travel link of the redeem menu, or none')
    .option('--new-partner-secret <partnerId>', "replace a catalog partner's secret with a new one, printed once (repeatable)", repeatable)
    .option('--support-email <address>', "the support desk's address, or none")
    .option('--privacy-notice-version <n>', 'the privacy notice version participants must accept (0: none)');
}

/** The flags turned into one checked change; any bad value is a CliError before the database is touched. */
function changeFrom(options: SettingsOptions): ClientChange {
  const origin = options.origin ?? [];
  const removeOrigin = options.removeOrigin ?? [];
  const newPartnerSecret = options.newPartnerSecret ?? [];
  for (const [flag, values] of [
    ['--origin', origin],
    ['--remove-origin', removeOrigin],
    ['--locale', options.locale ?? []],
    ['--media-label', options.mediaLabel ?? []],
    ['--new-partner-secret', newPartnerSecret],
  ] as const) {
    if (values.length > MAX_REPEATED) throw new CliError(`${flag}: at most ${MAX_REPEATED}`);
  }
  const locales = (options.locale ?? []).map((value) => parseLocale('--locale', value));
  const codes = locales.map((l) => l.code);
  if (new Set(codes).size !== codes.length) throw new CliError('--locale: a locale is given twice');
  const mediaLabels = (options.mediaLabel ?? []).map((value) => parseMediaLabel('--media-label', value));
  if (new Set(mediaLabels.map((m) => m.locale)).size !== mediaLabels.length) throw new CliError('--media-label: a locale is given twice');
  const defaultLocale = options.defaultLocale === undefined ? undefined : canonicalLocale('--default-locale', options.defaultLocale);
  if (defaultLocale && locales.length > 0 && !codes.includes(defaultLocale))
    throw new CliError(`--default-locale: ${defaultLocale} must be one of the locales (${codes.join(', ')})`);
  const catalogUrl = (flag: string, value: string | undefined) =>
    value === undefined ? undefined : value.trim() === 'none' ? null : parseFlag(flag, CatalogUrl, value);
  const catalogs: ClientChange['catalogs'] = {};
  for (const offering of OFFERINGS) {
    const url = catalogUrl(`--${offering}`, options[offering]);
    const partner = options[`${offering}Partner`];
    const partnerId = partner === undefined ? undefined : parseFlag(`--${offering}-partner`, PartnerId, partner);
    if (url !== undefined || partnerId !== undefined)
      catalogs[offering] = { ...(url === undefined ? {} : { url }), ...(partnerId === undefined ? {} : { partnerId }) };
  }
  return {
    name: options.name === undefined ? undefined : parseFlag('--name', ClientName, options.name),
    logo: options.logo === undefined ? undefined : readLogo(options.logo),
    brandColor: options.brandColor === undefined ? undefined : parseFlag('--brand-color', BrandColor, options.brandColor),
    addHosts: origin.map((value) => notTheConsole(parseFlag('--origin', OriginHost, value))),
    removeHosts: removeOrigin.map((value) => parseFlag('--remove-origin', OriginHost, value)),
    locales: locales.length > 0 ? locales : undefined,
    defaultLocale,
    mediaLabels,
    passwordRules: options.passwordRules === undefined ? undefined : parsePasswordRules('--password-rules', options.passwordRules),
    activationFields:
      options.activationFields === undefined ? undefined : parseActivationFields('--activation-fields', options.activationFields),
    catalogs,
    travel: catalogUrl('--travel', options.travel),
    newPartnerSecrets: newPartnerSecret.map((value) => parseFlag('--new-partner-secret', PartnerId, value)),
    supportEmail: options.supportEmail === undefined ? undefined : parseFlag('--support-email', SupportEmail, options.supportEmail),
    privacyNoticeVersion:
      options.privacyNoticeVersion === undefined
        ? undefined
        : parseFlag('--privacy-notice-version', PrivacyNoticeVersion, options.privacyNoticeVersion),
    portalUrl: options.portalUrl === undefined ? undefined : parseFlag('--portal-url', PortalUrl, options.portalUrl),
  };
}

/** The console's host is never a client's (docs/decisions/046): the participant API refuses it anyway. */
function notTheConsole(hostname: string): string {
  if (hostname === loadConfig().console.hostname)
    throw new CliError(`--origin: ${hostname} is the staff console's host (CONSOLE_ORIGIN) and can never be a client's`);
  return hostname;
}

function formatOutcome(outcome: ChangeOutcome): string {
  const lines = [
    outcome.changed.length === 0
      ? `Nothing to change for client ${outcome.client}.`
      : `${outcome.created ? 'Created' : 'Updated'} client ${outcome.client}: ${outcome.changed.join(', ')}.`,
  ];
  if (outcome.hostsAdded.length > 0) lines.push(`Origins added: ${outcome.hostsAdded.join(', ')}`);
  if (outcome.hostsRemoved.length > 0) lines.push(`Origins removed: ${outcome.hostsRemoved.join(', ')}`);
  for (const { partnerId, secret } of outcome.secrets) {
    lines.push(`Partner secret of ${partnerId} (shown this once; only its hash is kept, give it to the catalog now):`, `  ${secret}`);
  }
  return lines.join('\n');
}

interface RemovalOptions {
  client?: string;
  locale?: string;
  key?: string;
  reason?: string;
}

/** The options of the `remove` verbs (translations, content): what the console's removals ask for. */
function removalOptions(command: Command, keyHelp: string): Command {
  return command
    .option('--client <id>', 'the client')
    .option('--locale <code>', "one of the client's locales")
    .option('--key <key>', keyHelp)
    .option('--reason <text>', 'why, for the audit log (required, as in the console)');
}

async function removalFrom(db: Db, options: RemovalOptions) {
  const clientId = (await requireClient(db, options.client)).id;
  if (!options.locale) throw new CliError('--locale <code> is required');
  if (!options.key) throw new CliError('--key <key> is required');
  if (!options.reason?.trim()) throw new CliError('--reason <text> is required');
  return { clientId, locale: options.locale, key: options.key, reason: options.reason.trim() };
}

export function registerClients(program: Command): void {
  const clients = program
    .command('clients')
    .description(
      'the programs (clients) on this installation: create, show, list, update, revoke a catalog partner, import translations and content',
    );

  action(clients.command('list').description('every client with its origins and participant count'), async (db) => {
    const list = await listClients(db);
    const human =
      list.length === 0
        ? 'No clients.'
        : list
            .map(
              (c) =>
                `${c.id.padEnd(12)}  ${c.name.padEnd(24)}  ${c.defaultLocale.padEnd(6)}  ${String(c.participants).padStart(7)} participants  ${c.origins.join(', ')}`,
            )
            .join('\n');
    return { human, json: list };
  });

  action<{ client?: string }>(
    clients.command('show').description('everything set for a client (never a secret)').option('--client <id>', 'the client'),
    async (db, { options }) => {
      const description = await describeClient(db, (await requireClient(db, options.client)).id);
      return { human: formatClient(description), json: description };
    },
  );

  for (const mode of ['create', 'update'] as const) {
    const command = settingsOptions(
      clients
        .command(mode)
        .description(
          mode === 'create'
            ? 'add a client: --client, --name and one --origin at least; the rest has defaults'
            : "change a client's settings; only the flags given change",
        ),
      mode,
    );
    action<SettingsOptions>(command, async (db, { options, operator }) => {
      if (!options.client) throw new CliError('--client <id> is required');
      const clientId = parseFlag('--client', ClientId, options.client);
      const agentLimit =
        options.agentDailyLimit === undefined
          ? undefined
          : wholeNumber('--agent-daily-limit', options.agentDailyLimit, 0, MAX_AGENT_DAILY_LIMIT);
      // Points that expire (decision 062): checked whole before anything changes, set last with its own audit entry.
      const expiry = expiryChangeFrom(options);
      await checkExpiryFlags(db, mode, clientId, expiry);
      // The module's service, as the operator (decision 089): one transaction, one audit entry.
      const outcome = await applyClientChange(db, operatorActor(operator), {
        mode,
        clientId,
        change: changeFrom(options),
        production: loadConfig().production,
        wording: FLAG_WORDING,
      });
      if (agentLimit !== undefined) {
        // The console's service (PUT settings), with its own audit entry.
        const done = await setAgentDailyLimit(db, operatorActor(operator), clientId, agentLimit);
        if (done.auditId) outcome.changed.push('agentDailyAdjustmentLimit');
      }
      const expiryDone = await applyExpiryFlags(db, operator, clientId, expiry);
      if (!expiryDone) return { human: formatOutcome(outcome), json: outcome };
      outcome.changed.push(...expiryDone.changed);
      return {
        human: [formatOutcome(outcome), ...formatExpiryOutcome(expiryDone)].join('\n'),
        json: { ...outcome, expiry: expiryDone.to },
      };
    });
  }

  action<{ client?: string; partner?: string; reason?: string }>(
    clients
      .command('revoke-partner')
      .description('revoke a catalog partner no catalog names any more: its secret stops working; its orders stay')
      .option('--client <id>', 'the client')
      .option('--partner <id>', 'the partner id')
      .option('--reason <text>', 'why, for the audit log'),
    async (db, { options, operator }) => {
      const clientId = (await requireClient(db, options.client)).id;
      if (!options.partner) throw new CliError('--partner <id> is required');
      const done = await revokePartner(db, operatorActor(operator), clientId, options.partner, options.reason);
      return {
        human: `Revoked partner ${done.partnerId} of ${clientId}: its secret no longer works and no catalog may name it; its orders stay.`,
        json: { client: clientId, ...done },
      };
    },
  );

  const translations = clients.command('translations').description("a client's own wording over the shipped texts");
  action<{ client?: string; locale?: string; dryRun?: boolean }>(
    translations
      .command('import')
      .description(
        "import a bundle (.json flat or nested, or Java .properties) as the client's texts of one locale; reports keys missing or extra against the default locale and placeholder mismatches",
      )
      .argument('<file>', 'the bundle; its locale comes from --locale or the name (fr-FR.json, messages_fr_FR.properties)')
      .option('--client <id>', 'the client')
      .option('--locale <code>', "the locale of the texts (one of the client's)")
      .option('--dry-run', 'report only, change nothing'),
    async (db, { args, options, operator }) => {
      await requireClient(db, options.client);
      const report = await importTranslations(db, {
        clientId: options.client ?? '',
        file: args[0] ?? '',
        locale: options.locale,
        operator,
        dryRun: options.dryRun === true,
      });
      return {
        human: `${options.dryRun ? '(dry run, nothing changed) ' : ''}${formatTranslationsReport(report)}`,
        json: { ...report, dryRun: options.dryRun === true },
      };
    },
  );

  action<RemovalOptions>(
    removalOptions(
      translations
        .command('remove')
        .description("remove the client's own text of one key in one locale: the shipped text (or the fallback) shows again"),
      'the text key, such as home.title',
    ),
    async (db, { options, operator }) => {
      const { clientId, locale, key, reason } = await removalFrom(db, options);
      // The console's service: the same checks, audit entry and cache clearing.
      const { row, auditId } = await removeTranslation(db, operatorActor(operator), { clientId, locale, key, reason });
      const shown = row.text === null ? 'no text (the portal falls back)' : `the ${row.source} text: ${row.text}`;
      return {
        human:
          auditId === null
            ? `Nothing to remove: ${clientId} has no own text of ${row.key}. It shows ${shown}`
            : `Removed ${clientId}'s own text of ${row.key}. It shows ${shown}`,
        json: { client: clientId, removed: auditId !== null, ...row },
      };
    },
  );

  const content = clients.command('content').description('rules, FAQs and privacy texts per locale');
  action<{ client?: string }>(
    content
      .command('import')
      .description('import rules, FAQs and privacy texts (Markdown) per locale')
      .argument('<dir-or-file>', 'a directory of <locale>/<key>.md files, or a JSON file')
      .option('--client <id>', 'the client')
      .addHelpText('after', `\nLayout:\n${CONTENT_LAYOUT}`),
    async (db, { args, options, operator }) => {
      const report = await importContent(db, { clientId: (await requireClient(db, options.client)).id, path: args[0] ?? '', operator });
      return { human: formatContentReport(report), json: report };
    },
  );
  action<RemovalOptions>(
    removalOptions(
      content
        .command('remove')
        .description('remove one text (rules, FAQs, privacy texts) in one locale: participants reading in it no longer see it'),
      'faqs, privacyPolicy, privacyNotice or rules.<program name>',
    ),
    async (db, { options, operator }) => {
      const { clientId, locale, key, reason } = await removalFrom(db, options);
      // The console's service: the same checks and audit entry.
      const done = await removeContentEntry(db, operatorActor(operator), { clientId, locale, key, reason });
      return {
        human:
          done.auditId === null
            ? `Nothing to remove: ${clientId} has no ${done.key} in ${done.locale}.`
            : `Removed ${clientId}'s ${done.key} in ${done.locale}.`,
        json: { client: clientId, key: done.key, locale: done.locale, removed: done.auditId !== null },
      };
    },
  );
}
