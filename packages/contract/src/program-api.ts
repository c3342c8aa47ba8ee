import { z } from 'zod';
import { GenerateBatchRequest } from './console-codes.ts';
import { ConfirmImportRequest, ImportJob, ImportKind } from './console-imports.ts';

/**
 * The program API (issue 29 §2, docs/decisions/085): a client's own systems (a CRM, a shop, an HR
 * feed) upsert participants, post points once per externalId, read statements and reverse
 * postings, with `Authorization: Bearer <key>` (decision 083). The client is the key's; nothing
 * of another client is reachable (404). Errors are the one `{errorCode, responseMessage, message}`.
 */
export const PROGRAM_API_BASE = '/api/program/v1';

const seg = encodeURIComponent;

/** Paths under PROGRAM_API_BASE, as a caller writes them (the server registers the `:name` forms). */
export const programApiPaths = {
  /** GET: participants changed since a time, keyset-paged. */
  participants: '/participants',
  /** PUT: create or update one (the import's fields and rules); GET: one. */
  participant: (username: string) => `/participants/${seg(username)}`,
  /** POST: active or inactive, with a reason. */
  status: (username: string) => `/participants/${seg(username)}/status`,
  /** GET: the ledger, newest first, with the balance after each entry. */
  statement: (username: string) => `/participants/${seg(username)}/statement`,
  /** POST: a credit or a debit, once per externalId. */
  points: '/points',
  /** POST: take back all or part of a posting, once. */
  reversal: (externalId: string) => `/points/${seg(externalId)}/reversal`,
  /** POST ?kind=points|participants (body: the CSV, text/csv): an import job, as the console's. */
  imports: '/imports',
  /** GET: the job's state, progress and preview. */
  importJob: (importId: string) => `/imports/${seg(importId)}`,
  /** POST: confirm a previewed import with a reason. */
  confirmImport: (importId: string) => `/imports/${seg(importId)}/confirm`,
  /** POST: a batch of on-the-spot codes, answered as CSV (the only copy of the codes). */
  codeBatches: '/code-batches',
} as const;

/** The largest posting either way: a typo guard, as the import's and the console's. */
export const PROGRAM_MAX_POINTS = 100_000_000;
export const PROGRAM_MAX_EXTERNAL_ID = 200;
export const PROGRAM_MAX_DESCRIPTION = 200;
export const PROGRAM_PAGE_DEFAULT = 100;
export const PROGRAM_PAGE_MAX = 500;

/** Text of a caller: no control characters (a line break, a NUL), well-formed Unicode. */
const printable = (value: string) => value.isWellFormed() && !/\p{Cc}/u.test(value);
const text = (what: string, max: number, min = 1) =>
  z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine(printable, { message: `${what} has control characters` });

// Path parameters are checked by Ajv from their JSON Schema: no control characters (PostgreSQL takes no NUL in text).
const NO_CONTROL = /^[^\u0000-\u001f\u007f]+$/;
export const ProgramUsernameParams = z.object({ username: z.string().min(1).max(200).regex(NO_CONTROL) });
export type ProgramUsernameParams = z.infer<typeof ProgramUsernameParams>;
export const ProgramExternalIdParams = z.object({ externalId: z.string().min(1).max(PROGRAM_MAX_EXTERNAL_ID).regex(NO_CONTROL) });
export type ProgramExternalIdParams = z.infer<typeof ProgramExternalIdParams>;

export const ProgramOfferings = z.strictObject({
  merchandise: z.boolean(),
  experiences: z.boolean(),
  ots: z.boolean().describe('On-the-spot codes'),
});

/**
 * PUT participants/{username}: a participants file's line as JSON, checked by the import's rules
 * (names 1-100 characters, account number 1-50 and unique in the client, the locale one of the
 * client's, the date of birth YYYY-MM-DD). What is left out: a new participant gets the default
 * (the client's locale, pending, no date of birth); a known one keeps theirs.
 */
export const ProgramParticipantRequest = z.strictObject({
  firstName: z.string().max(1000),
  lastName: z.string().max(1000),
  email: z.string().max(1000),
  accountNumber: z.string().max(1000),
  locale: z.string().max(100).optional().describe("One of the client's locale codes; left out: the client's default for a new participant"),
  offerings: ProgramOfferings,
  programs: z
    .array(
      z
        .string()
        .max(1000)
        .refine((name) => !name.includes('|'), { message: 'a program name cannot contain |' }),
    )
    .max(100),
  status: z
    .enum(['pending', 'active', 'inactive'])
    .optional()
    .describe('As in the import: pending never undoes an activation (the participant keeps their status)'),
  dateOfBirth: z.string().max(100).nullable().optional().describe('YYYY-MM-DD; null or "" for none'),
});
export type ProgramParticipantRequest = z.infer<typeof ProgramParticipantRequest>;

export const ProgramParticipant = z.object({
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  accountNumber: z.string(),
  locale: z.string(),
  dateOfBirth: z.string().nullable(),
  status: z.string().describe('pending (not activated yet), active or inactive'),
  offerings: z.object({ merchandise: z.boolean(), experiences: z.boolean(), ots: z.boolean() }),
  programs: z.array(z.string()),
  balance: z.number().int(),
  createdAt: z.string(),
  /** The last change of what this shows but the balance (decision 085). */
  updatedAt: z.string(),
});
export type ProgramParticipant = z.infer<typeof ProgramParticipant>;

export const ProgramParticipantReply = z.object({
  /** 201 created; 200 updated or unchanged. */
  result: z.enum(['created', 'updated', 'unchanged']),
  /** The fields that changed (all of them when created). */
  changed: z.array(z.string()),
  participant: ProgramParticipant,
});
export type ProgramParticipantReply = z.infer<typeof ProgramParticipantReply>;

/** An ISO 8601 time with its offset, or a day (taken as its start, UTC). */
const Instant = z.string().max(40);

export const ProgramParticipantsQuery = z.strictObject({
  updatedSince: Instant.optional().describe('Only participants created or changed at or after this time (ISO 8601)'),
  cursor: z.string().max(2000).optional().describe("The previous page's next"),
  limit: z.coerce.number().int().min(1).max(PROGRAM_PAGE_MAX).optional(),
});
export type ProgramParticipantsQuery = z.infer<typeof ProgramParticipantsQuery>;

export const ProgramParticipantsPage = z.object({
  participants: z.array(ProgramParticipant),
  /** The cursor of the next page; null on the last. */
  next: z.string().nullable(),
});
export type ProgramParticipantsPage = z.infer<typeof ProgramParticipantsPage>;

export const ProgramStatusRequest = z.strictObject({
  status: z.enum(['active', 'inactive']).describe('Never back to pending (decision 076)'),
  reason: text('reason', 500, 3),
});
export type ProgramStatusRequest = z.infer<typeof ProgramStatusRequest>;

export const ProgramStatusReply = z.object({
  username: z.string(),
  from: z.string(),
  to: z.string(),
  /** False when the participant had the status already (nothing written). */
  changed: z.boolean(),
  sessionsEnded: z.number().int(),
});
export type ProgramStatusReply = z.infer<typeof ProgramStatusReply>;

/**
 * What the participant reads in their history: a text, or a translation key of the client's
 * bundles with its values (a value named `<name>Key` is itself a key, its text filling {name}),
 * and the text shown where no bundle has the key.
 */
export const ProgramDescription = z.union([
  text('description', PROGRAM_MAX_DESCRIPTION),
  z.strictObject({
    key: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_.-]{0,99}$/)
      .describe('A translation key, e.g. ledger.crm.purchase'),
    params: z
      .record(z.string().regex(/^\w{1,40}$/), z.union([text('a value', PROGRAM_MAX_DESCRIPTION), z.number().int().safe()]))
      .refine((params) => Object.keys(params).length <= 10, { message: 'at most 10 values' })
      .optional(),
    text: text('text', PROGRAM_MAX_DESCRIPTION).describe('Shown where no bundle of the participant has the key'),
  }),
]);
export type ProgramDescription = z.infer<typeof ProgramDescription>;

export const ProgramPointsRequest = z.strictObject({
  username: text('username', 200),
  points: z
    .number()
    .int()
    .min(-PROGRAM_MAX_POINTS)
    .max(PROGRAM_MAX_POINTS)
    .refine((points) => points !== 0, { message: 'points cannot be 0' })
    .describe('Whole points: positive credits, negative debits (never below a balance of zero)'),
  description: ProgramDescription,
  externalId: text('externalId', PROGRAM_MAX_EXTERNAL_ID).describe(
    'Your id of the posting, unique in the program: the same body again answers the same reply; another body under it is 409',
  ),
  occurredAt: Instant.optional().describe('When it happened (ISO 8601, or a day: noon UTC); default now'),
  note: text('note', 500).optional().describe('For staff only (the console shows it), never the participant'),
});
export type ProgramPointsRequest = z.infer<typeof ProgramPointsRequest>;

export const ProgramPointsReply = z.object({
  externalId: z.string(),
  entryId: z.string(),
  username: z.string(),
  /** Signed, as posted. */
  points: z.number().int(),
  balanceAfter: z.number().int(),
  occurredAt: z.string(),
});
export type ProgramPointsReply = z.infer<typeof ProgramPointsReply>;

export const ProgramReversalRequest = z.strictObject({
  points: z
    .number()
    .int()
    .min(1)
    .max(PROGRAM_MAX_POINTS)
    .optional()
    .describe("How many of the posting's points to take back (a magnitude); default all"),
  reason: text('reason', 500, 3),
  description: ProgramDescription.optional().describe('What the participant reads; default "Reversal: <the posting\'s text>"'),
});
export type ProgramReversalRequest = z.infer<typeof ProgramReversalRequest>;

export const ProgramReversalReply = z.object({
  externalId: z.string(),
  /** The reversal's own ledger entry. */
  entryId: z.string(),
  reversedEntryId: z.string(),
  username: z.string(),
  /** Signed movement: negative for a credit taken back, positive for a debit given back. */
  points: z.number().int(),
  balanceAfter: z.number().int(),
  occurredAt: z.string(),
});
export type ProgramReversalReply = z.infer<typeof ProgramReversalReply>;

export const ProgramStatementQuery = z.strictObject({
  cursor: z.string().max(2000).optional().describe("The previous page's next"),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
export type ProgramStatementQuery = z.infer<typeof ProgramStatementQuery>;

export const ProgramStatementEntry = z.object({
  entryId: z.string(),
  occurredAt: z.string(),
  /** What the participant reads, in the client's default language. */
  description: z.string(),
  points: z.number().int(),
  balanceAfter: z.number().int(),
  /** award, redemption, adjustment, ots, expiry. */
  kind: z.string(),
  /** The API's externalId of a posting or of the posting a reversal took back; null for the rest. */
  externalId: z.string().nullable(),
  /** True for the entry of a reversal. */
  reversal: z.boolean(),
  note: z.string().nullable(),
  postedBy: z.string().nullable(),
});
export type ProgramStatementEntry = z.infer<typeof ProgramStatementEntry>;

export const ProgramStatementPage = z.object({
  username: z.string(),
  balance: z.number().int(),
  entries: z.array(ProgramStatementEntry),
  next: z.string().nullable(),
});
export type ProgramStatementPage = z.infer<typeof ProgramStatementPage>;

// ---------------------------------------------------------------------------------------------
// Bulk: the console's imports and code batches (decisions 063, 064), through the same services

export const ProgramImportQuery = z.strictObject({
  kind: ImportKind.describe('points needs points:write, participants participants:write, events events:write'),
  fileName: z.string().trim().min(1).max(255).optional().describe('Shown in the console with the job; default api-upload.csv'),
});
export type ProgramImportQuery = z.infer<typeof ProgramImportQuery>;
export const ProgramImportParams = z.object({ importId: z.string().regex(/^[0-9a-f-]{36}$/) });
export type ProgramImportParams = z.infer<typeof ProgramImportParams>;
export const ProgramImportJob = ImportJob;
export type ProgramImportJob = z.infer<typeof ProgramImportJob>;
export const ProgramConfirmImportRequest = ConfirmImportRequest;
export type ProgramConfirmImportRequest = z.infer<typeof ProgramConfirmImportRequest>;
export const ProgramCodeBatchRequest = GenerateBatchRequest;
export type ProgramCodeBatchRequest = z.infer<typeof ProgramCodeBatchRequest>;
