import type { Db } from '../../db/database.ts';

export async function listClientTranslations(db: Db, clientId: string, locale: string) {
  return db.selectFrom('translations').select(['key', 'text']).where('client_id', '=', clientId).where('locale', '=', locale).execute();
}

/** The client's own texts of a locale as a map (a transaction's view inside one). */
export async function clientTranslationMap(db: Db, clientId: string, locale: string): Promise<Map<string, string>> {
  return new Map((await listClientTranslations(db, clientId, locale)).map((r) => [r.key, r.text]));
}

export async function updateClientTranslation(db: Db, clientId: string, locale: string, key: string, text: string): Promise<void> {
  await db
    .updateTable('translations')
    .set({ text })
    .where('client_id', '=', clientId)
    .where('locale', '=', locale)
    .where('key', '=', key)
    .execute();
}

const BATCH = 500;

/** Inserts, or overwrites the same keys (two imports at once both succeed; the last one's text stays). */
export async function upsertClientTranslations(
  db: Db,
  clientId: string,
  locale: string,
  texts: ReadonlyArray<[string, string]>,
): Promise<void> {
  for (let i = 0; i < texts.length; i += BATCH) {
    await db
      .insertInto('translations')
      .values(texts.slice(i, i + BATCH).map(([key, text]) => ({ client_id: clientId, locale, key, text })))
      .onConflict((oc) => oc.columns(['client_id', 'locale', 'key']).doUpdateSet((eb) => ({ text: eb.ref('excluded.text') })))
      .execute();
  }
}

export async function deleteClientTranslation(db: Db, clientId: string, locale: string, key: string): Promise<void> {
  await db.deleteFrom('translations').where('client_id', '=', clientId).where('locale', '=', locale).where('key', '=', key).execute();
}

/** How many own texts the client has per locale (`rewards clients show`). */
export async function countClientTranslations(db: Db, clientId: string): Promise<Array<{ locale: string; count: number }>> {
  const rows = await db
    .selectFrom('translations')
    .select(['locale', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('client_id', '=', clientId)
    .groupBy('locale')
    .orderBy('locale')
    .execute();
  return rows.map((r) => ({ locale: r.locale, count: Number(r.count) }));
}
