import { z } from 'zod';

/**
 * Participant search in the console (issue 17, docs/decisions/045): the query string of a
 * search. `q` is matched, ignoring case, accents and repeated spaces, as a prefix of the
 * username, "first last", "last first", e-mail or account number; the server refuses fewer
 * than 2 characters once normalised. `after` is the `next` of the previous page.
 */
export const ParticipantSearchQuery = z.object({
  q: z.string().max(256),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  after: z.string().max(2000).optional(),
});
export type ParticipantSearchQuery = z.infer<typeof ParticipantSearchQuery>;

export const ParticipantSearchMatch = z.enum(['name', 'username', 'email', 'accountNumber']);

/** One participant found: where (client) and who, with their status and balance. */
export const ParticipantSearchResult = z.object({
  clientId: z.string(),
  id: z.string(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  accountNumber: z.string(),
  status: z.string(),
  balance: z.number().int(),
  /** The key the participant was found by, shown once even when several match. */
  matchedOn: ParticipantSearchMatch,
});
export type ParticipantSearchResult = z.infer<typeof ParticipantSearchResult>;

/** A page in a stable order; `next` is null on the last page. */
export const ParticipantSearchReply = z.object({
  participants: z.array(ParticipantSearchResult),
  next: z.string().nullable(),
});
export type ParticipantSearchReply = z.infer<typeof ParticipantSearchReply>;
