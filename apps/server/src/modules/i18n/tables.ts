/** A client's own wording for a key, over the base bundle shipped with the app. */
export interface TranslationsTable {
  client_id: string;
  locale: string;
  key: string;
  text: string;
}
