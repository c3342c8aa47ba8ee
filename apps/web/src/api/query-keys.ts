/**
 * Every key the portal's server data is cached under, a factory per feature (as the console's
 * api/query-keys.ts): a read and the writes that make it stale name the same function, never an
 * array written twice. A key that begins with another is made stale with it (prefix matching).
 * `useApiQuery` puts the session id in front of each (a sign-out does not reload the page).
 */
export const queryKeys = {
  statement: {
    all: () => ['statement'] as const,
    /** The language is in the key: the descriptions are translated. */
    of: (username: string | undefined, locale: string) => ['statement', username, locale] as const,
  },
  expirySchedule: {
    all: () => ['expirySchedule'] as const,
    /** The balance is in the key: an order placed in the catalog's tab moves it, with no write of ours to say so. */
    at: (balance: unknown) => ['expirySchedule', balance] as const,
  },
  content: {
    all: () => ['content'] as const,
    text: (key: string, locale: string) => ['content', key, locale] as const,
  },
  rules: {
    all: () => ['rules'] as const,
    inLocale: (locale: string) => ['rules', locale] as const,
  },
};
