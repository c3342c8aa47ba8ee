import { z } from 'zod';

/**
 * The console's code batches (issue 20 §1, docs/decisions/063): on-the-spot codes generated in
 * print runs ("batches"), as `rewards codes generate | list | void` does. Every role of the client
 * reads the list; owners and program managers generate (with a fresh second factor) and void, with
 * a reason. The codes of a new batch are in the reply to the generate request only, as CSV.
 */
const seg = encodeURIComponent;

export const consoleCodesPaths = {
  /** GET: the client's batches, newest first (BatchList); POST: generate one (GenerateBatchRequest), answered as CSV. */
  batches: (clientId: string) => `/clients/${seg(clientId)}/codes/batches`,
  /** GET ?hint=: one batch, its counts and codes by hint (BatchDetail). */
  batch: (clientId: string, batch: string) => `/clients/${seg(clientId)}/codes/batches/${seg(batch)}`,
  /** POST: void the batch's unused codes, or one of them by hint (VoidCodesRequest). */
  voidCodes: (clientId: string, batch: string) => `/clients/${seg(clientId)}/codes/batches/${seg(batch)}/void`,
} as const;

/** The limits of one print run, the same for the command and the console. */
export const MAX_BATCH_COUNT = 100_000;
export const MAX_CODE_VALUE = 10_000_000;
export const MAX_BATCH_NAME = 100;
/** The most codes a batch's detail lists at once (narrow it by hint). */
export const MAX_DETAIL_CODES = 500;

/** CSV columns of a new batch's file, as `codes generate --out` writes it. */
export const BATCH_CSV_COLUMNS = ['code', 'value', 'expires_at', 'batch'] as const;

const Reason = z.string().trim().min(3).max(500);

export const BatchParams = z.object({ clientId: z.string().min(1).max(64), batch: z.string().min(1).max(MAX_BATCH_NAME) });
export type BatchParams = z.infer<typeof BatchParams>;

export const GenerateBatchRequest = z.object({
  /** The batch's name, once per client. */
  name: z.string().trim().min(1).max(MAX_BATCH_NAME),
  count: z.number().int().min(1).max(MAX_BATCH_COUNT),
  /** Points each code credits. */
  value: z.number().int().min(1).max(MAX_CODE_VALUE),
  /** Last day a code can be redeemed (YYYY-MM-DD, through its end UTC) or an ISO 8601 time; absent: never expires. */
  expires: z.string().trim().min(1).max(40).optional(),
  reason: Reason,
});
export type GenerateBatchRequest = z.infer<typeof GenerateBatchRequest>;

export const BatchSummary = z.object({
  /** Null: codes stored without a batch (imports of old). */
  name: z.string().nullable(),
  createdAt: z.string(),
  /** The codes' value when they all have the same one, else null. */
  value: z.number().int().nullable(),
  /** The latest expiry among the codes (null: at least one never expires). */
  expiresAt: z.string().nullable(),
  total: z.number().int(),
  unused: z.number().int(),
  redeemed: z.number().int(),
  expired: z.number().int(),
  void: z.number().int(),
});
export type BatchSummary = z.infer<typeof BatchSummary>;

export const BatchList = z.object({ batches: z.array(BatchSummary) });
export type BatchList = z.infer<typeof BatchList>;

export const CodeState = z.enum(['unused', 'redeemed', 'expired', 'void']);
export type CodeState = z.infer<typeof CodeState>;

export const BatchCode = z.object({
  /** The code's last four characters: the code itself is never kept. */
  hint: z.string(),
  value: z.number().int(),
  state: CodeState,
  expiresAt: z.string().nullable(),
  redeemedAt: z.string().nullable(),
  /** The username of who redeemed it. */
  redeemedBy: z.string().nullable(),
});
export type BatchCode = z.infer<typeof BatchCode>;

export const BatchDetailQuery = z.object({ hint: z.string().trim().min(1).max(8).optional() });
export type BatchDetailQuery = z.infer<typeof BatchDetailQuery>;

export const BatchDetail = BatchSummary.extend({
  /** Codes by hint (those matching ?hint= when given), at most MAX_DETAIL_CODES. */
  codes: z.array(BatchCode),
  /** How many codes matched; more than codes.length when the list was cut. */
  matched: z.number().int(),
});
export type BatchDetail = z.infer<typeof BatchDetail>;

export const VoidCodesRequest = z.object({
  /** One code by its last four characters; absent: every unused code of the batch. */
  hint: z.string().trim().min(1).max(8).optional(),
  reason: Reason,
});
export type VoidCodesRequest = z.infer<typeof VoidCodesRequest>;

export const VoidCodesReply = z.object({
  /** What was named: the batch, or "batch …HINT". */
  subject: z.string(),
  /** Codes voided now (0: nothing was left to void; nothing written). */
  voided: z.number().int(),
  /** Of those, how many had expired already. */
  expired: z.number().int(),
  /** The audit entry, null when nothing changed. */
  auditId: z.string().nullable(),
});
export type VoidCodesReply = z.infer<typeof VoidCodesReply>;
