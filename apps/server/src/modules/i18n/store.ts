import type { Db } from '../../db/database.ts';

export async function listClientTranslations(db: Db, clientId: string, locale: string) {
  return db.selectFrom('translations').select(['key', 'text']).where('client_id', '=', clientId).where('locale', '=', locale).execute();
}
