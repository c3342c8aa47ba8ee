import { RULES_KEY_PREFIX, contentKeys } from '@rewards/contract';
import { MAX_CONTENT_BYTES, type ContentEntry, type ContentList, type ContentReply } from '@rewards/contract/console-translations';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import { recordAudit } from '../audit/service.ts';
import { clientLocale, clientWithLocales } from '../i18n/editing.ts';
import type { Actor } from '../participants/operator-service.ts';
import { listClientPrograms } from '../participants/service.ts';
import { renderMarkdown } from './markdown.ts';
import { deleteContentEntry, findContentEntry, insertContentEntry, listContentEntries, updateContentEntry } from './store.ts';

export { MAX_CONTENT_BYTES };

/**
 * Rules, FAQs and privacy texts as the console and `rewards clients content import` write them
 * (issue 20 §4, docs/decisions/066): the same key and body rules, the same upsert (an unchanged
 * text keeps its date, which the portal shows as "updated on"), one audit entry per change. The
 * portal reads content_entries on every request (no cache), so a change shows at once. The
 * console's preview is renderMarkdown, the portal's own renderer and sanitiser.
 */
export const FIXED_CONTENT_KEYS: readonly string[] = [contentKeys.faqs, contentKeys.privacyPolicy, contentKeys.privacyNotice];
const MAX_PROGRAM_NAME = 100;

/** The key, or a validation error naming the keys there are (`source` says where it came from). */
export function checkContentKey(key: string, source?: string): string {
  if (FIXED_CONTENT_KEYS.includes(key)) return key;
  const program = key.startsWith(RULES_KEY_PREFIX) ? key.slice(RULES_KEY_PREFIX.length) : '';
  if (program.trim() !== '' && program.length <= MAX_PROGRAM_NAME && !/\p{Cc}/u.test(program)) return key;
  throw errors.validation(
    `${source ? `${source}: ` : ''}"${key.slice(0, 120)}" is not a content key (${FIXED_CONTENT_KEYS.join(', ')}, rules.<program name>)`,
  );
}

/** Non-empty Markdown of at most MAX_CONTENT_BYTES. */
export function checkContentBody(body: unknown, source?: string): string {
  const where = source ? `${source}: ` : '';
  if (typeof body !== 'string' || body.trim() === '') throw errors.validation(`${where}the text must be non-empty Markdown`);
  if (Buffer.byteLength(body) > MAX_CONTENT_BYTES)
    throw errors.validation(`${where}the text is larger than ${MAX_CONTENT_BYTES / 1024} KB`);
  return body;
}

export interface ContentItem {
  locale: string;
  key: string;
  body: string;
}

export type ContentResult = 'added' | 'updated' | 'unchanged';

/**
 * Upserts the items in one transaction with one audit entry (none when nothing changed and
 * `auditUnchanged` is false: the console's "save" of the same text writes nothing).
 */
export async function saveContentEntries(
  db: Db,
  actor: Actor,
  request: {
    clientId: string;
    items: readonly ContentItem[];
    action: 'clients.content.import' | 'clients.content.edit';
    subject: string;
    /** The audit entry's details, from what was done. */
    details: (results: ReadonlyArray<ContentItem & { result: ContentResult }>) => Record<string, unknown>;
    auditUnchanged: boolean;
  },
  now = new Date(),
): Promise<{ results: Array<ContentItem & { result: ContentResult; before: string | null }>; auditId: string | null; updatedAt: string }> {
  const updatedAt = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const results: Array<ContentItem & { result: ContentResult; before: string | null }> = [];
    for (const item of request.items) {
      const row = await findContentEntry(trx, request.clientId, item.locale, item.key);
      let result: ContentResult;
      if (!row) {
        await insertContentEntry(trx, {
          client_id: request.clientId,
          locale: item.locale,
          key: item.key,
          body: item.body,
          updated_at: updatedAt,
        });
        result = 'added';
      } else if (row.body === item.body) result = 'unchanged';
      else {
        await updateContentEntry(trx, request.clientId, item.locale, item.key, item.body, updatedAt);
        result = 'updated';
      }
      results.push({ ...item, result, before: row?.body ?? null });
    }
    const changed = results.some((r) => r.result !== 'unchanged');
    const auditId =
      changed || request.auditUnchanged
        ? await recordAudit(
            trx,
            {
              clientId: request.clientId,
              actor: actor.name,
              actorKind: actor.kind,
              action: request.action,
              subject: request.subject,
              details: request.details(results),
              origin: actor.origin,
            },
            now,
          )
        : null;
    return { results, auditId, updatedAt };
  });
}

/** The programs of a client's participants among `programs`. */
export function programsWithParticipants(db: Db, clientId: string, programs: readonly string[]): Promise<string[]> {
  return listClientPrograms(db, clientId, programs);
}

/** GET content: the keys there may be (fixed ones, each program's rules) and which exist in which locale. */
export async function contentList(db: Db, clientId: string): Promise<ContentList> {
  const { client, locales } = await clientWithLocales(db, clientId);
  const entries = await listContentEntries(db, client.id);
  const programs = await listClientPrograms(db, client.id);
  const keys = [
    ...FIXED_CONTENT_KEYS,
    ...[...new Set([...programs.map((p) => `${RULES_KEY_PREFIX}${p}`), ...entries.map((e) => e.key)])]
      .filter((k) => !FIXED_CONTENT_KEYS.includes(k))
      .sort(),
  ];
  return {
    defaultLocale: client.default_locale,
    locales,
    keys,
    entries: entries.map((e) => ({ key: e.key, locale: e.locale, updatedAt: e.updated_at, length: Number(e.length) })),
  };
}

/** GET one text: its Markdown and the portal's rendering (both null when the locale has none yet). */
export async function contentEntry(db: Db, clientId: string, rawLocale: string, rawKey: string): Promise<ContentEntry> {
  const { client, locale } = await clientLocale(db, clientId, rawLocale);
  const key = checkContentKey(rawKey);
  const row = await findContentEntry(db, client.id, locale, key);
  return { key, locale, body: row?.body ?? null, html: row ? renderMarkdown(row.body) : null, updatedAt: row?.updated_at ?? null };
}

/** PUT one text, with a reason; audited with the sizes before and after (the texts are in the table). */
export async function setContentEntry(
  db: Db,
  actor: Actor,
  change: { clientId: string; locale: string; key: string; body: string; reason: string },
  now = new Date(),
): Promise<ContentReply> {
  const { client, locale } = await clientLocale(db, change.clientId, change.locale);
  const key = checkContentKey(change.key);
  const body = checkContentBody(change.body);
  const before = await findContentEntry(db, client.id, locale, key);
  const done = await saveContentEntries(
    db,
    actor,
    {
      clientId: client.id,
      items: [{ locale, key, body }],
      action: 'clients.content.edit',
      subject: key,
      details: () => ({ locale, key, reason: change.reason, fromLength: before ? before.body.length : null, toLength: body.length }),
      auditUnchanged: false,
    },
    now,
  );
  const saved = done.results[0];
  return {
    key,
    locale,
    body,
    html: renderMarkdown(body),
    updatedAt: saved?.result === 'unchanged' ? (before?.updated_at ?? done.updatedAt) : done.updatedAt,
    auditId: done.auditId,
  };
}

/**
 * DELETE one text in one locale, with a reason: the portal then shows what it shows without it (the
 * page's "not available yet", or for the privacy notice no acceptance asked in that language). Audited
 * with the removed text's length (the text itself was in the table); nothing there: nothing written.
 */
export async function removeContentEntry(
  db: Db,
  actor: Actor,
  change: { clientId: string; locale: string; key: string; reason: string },
  now = new Date(),
): Promise<ContentReply> {
  const { client, locale } = await clientLocale(db, change.clientId, change.locale);
  const key = checkContentKey(change.key);
  const auditId = await db.transaction().execute(async (trx) => {
    const before = await findContentEntry(trx, client.id, locale, key);
    if (!before) return null;
    await deleteContentEntry(trx, client.id, locale, key);
    return recordAudit(
      trx,
      {
        clientId: client.id,
        actor: actor.name,
        actorKind: actor.kind,
        action: 'clients.content.remove',
        subject: key,
        details: { locale, key, reason: change.reason, fromLength: before.body.length },
        origin: actor.origin,
      },
      now,
    );
  });
  return { key, locale, body: null, html: null, updatedAt: null, auditId };
}

/** The preview: what the portal would show for this Markdown (same renderer, same sanitising). */
export function previewContent(body: string): { html: string } {
  return { html: renderMarkdown(body) };
}
