import type { Bundle } from '@rewards/contract';

/**
 * Key groups whose texts only the server reads: the mails it renders (`mail.`, `contactMail.`)
 * and the statement's descriptions, which it writes into each entry (`ledger.`). They are a
 * sixth of a bundle (4 of 25 kB in English), and every client data reply, bundle reply and page
 * carried them to browsers that never look at them (decision 056). The server's own bundles
 * (buildBundle) keep them; a client's wording of them still reaches its mails and statements.
 * A test checks that the web app names no key of these groups.
 */
export const SERVER_ONLY_KEY_GROUPS: readonly string[] = ['mail', 'contactMail', 'ledger'];

const prefixes = SERVER_ONLY_KEY_GROUPS.map((group) => `${group}.`);

export function isServerOnlyKey(key: string): boolean {
  return prefixes.some((prefix) => key.startsWith(prefix));
}

/** The bundle as browsers get it: without the server's own texts. */
export function webBundle(bundle: Bundle): Bundle {
  const properties: Record<string, string> = {};
  for (const [key, text] of Object.entries(bundle.properties)) if (!isServerOnlyKey(key)) properties[key] = text;
  return { locale: bundle.locale, properties };
}
