import { z } from 'zod';

/**
 * The console's participant API (issue 17, section 3), under /api/console/v1 next to
 * ./console.ts: find a participant, read their page, act on them with a reason. A participant
 * is named by their client and id; every route checks the caller's role in that client.
 */
const seg = encodeURIComponent;
const base = (clientId: string, participantId: string) => `/clients/${seg(clientId)}/participants/${seg(participantId)}`;

export const consoleParticipantPaths = {
  /** GET ?q=&limit=&after=&clientId=: ParticipantSearchReply of ./participant-search.ts. */
  search: '/participants',
  participant: base,
  statement: (clientId: string, participantId: string) => `${base(clientId, participantId)}/statement`,
  launchAs: (clientId: string, participantId: string) => `${base(clientId, participantId)}/launch-as`,
  adjustments: (clientId: string, participantId: string) => `${base(clientId, participantId)}/adjustments`,
  status: (clientId: string, participantId: string) => `${base(clientId, participantId)}/status`,
  unlock: (clientId: string, participantId: string) => `${base(clientId, participantId)}/unlock`,
  endSessions: (clientId: string, participantId: string) => `${base(clientId, participantId)}/sessions/end`,
  resendMail: (clientId: string, participantId: string) => `${base(clientId, participantId)}/mails/resend`,
  details: (clientId: string, participantId: string) => `${base(clientId, participantId)}/details`,
  /** GET and PUT: the client's console settings (the agents' daily adjustment limit). */
  settings: (clientId: string) => `/clients/${seg(clientId)}/settings`,
} as const;

export const ConsoleParticipantParams = z.object({ clientId: z.string().min(1).max(64), participantId: z.string().min(1).max(64) });
export type ConsoleParticipantParams = z.infer<typeof ConsoleParticipantParams>;

/** Search scoped to the clients the caller may see; `clientId` narrows it to one of them. */
export const ConsoleSearchQuery = z.object({
  q: z.string().max(256),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  after: z.string().max(2000).optional(),
  clientId: z.string().min(1).max(64).optional(),
});
export type ConsoleSearchQuery = z.infer<typeof ConsoleSearchQuery>;

// ---------------------------------------------------------------------------------------------
// The participant's page: GET participant (everything but the statement, which pages on its own)

const LimitStanding = z.object({
  /** What is limited: "sign-in", "sign-in per day", "activation", "codes", ... */
  name: z.string(),
  taken: z.number().int(),
  max: z.number().int(),
  /** ISO time the window ends; a full window refuses until then. */
  windowEndsAt: z.string(),
  locked: z.boolean(),
});

export const ConsoleParticipant = z.object({
  client: z.object({ id: z.string(), name: z.string(), currencyName: z.string(), portalUrl: z.string() }),
  /** The caller's role in this client (null: an owner without one); the app hides what the role may not do. */
  role: z.enum(['program_manager', 'support_agent', 'auditor']).nullable(),
  /** The actions the caller may take here, decided on the server (the routes check again). */
  can: z.object({
    launchAs: z.boolean(),
    adjust: z.boolean(),
    changeStatus: z.boolean(),
    unlock: z.boolean(),
    endSessions: z.boolean(),
    resendMail: z.boolean(),
    correctDetails: z.boolean(),
  }),
  identity: z.object({
    id: z.string(),
    username: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    accountNumber: z.string(),
    dateOfBirth: z.string().nullable(),
    /** pending | active | suspended | closed … as the participant module knows them. */
    status: z.string(),
    locale: z.string(),
    createdAt: z.string(),
    programs: z.array(z.string()),
    offerings: z.object({ merchandise: z.boolean(), experiences: z.boolean(), ots: z.boolean() }),
    /** The privacy notice version acknowledged, and the client's current one. */
    privacyAcknowledged: z.number().int(),
    privacyCurrent: z.number().int(),
  }),
  balance: z.number().int(),
  codes: z.array(z.object({ hint: z.string(), value: z.number().int(), redeemedAt: z.string(), batch: z.string().nullable() })),
  orders: z.array(z.object({ partner: z.string(), orderId: z.string(), points: z.number().int(), at: z.string() })),
  signIns: z.object({
    lastSignInAt: z.string().nullable(),
    limits: z.array(LimitStanding),
  }),
  sessions: z.array(z.object({ createdAt: z.string(), lastSeenAt: z.string(), idleExpiresAt: z.string(), launchedAs: z.boolean() })),
  mails: z.array(
    z.object({
      id: z.string(),
      template: z.string(),
      subject: z.string(),
      to: z.string(),
      status: z.string(),
      createdAt: z.string(),
      sentAt: z.string().nullable(),
      note: z.string().nullable(),
    }),
  ),
  contactMessages: z.array(z.object({ id: z.string(), topic: z.string(), subject: z.string(), status: z.string(), createdAt: z.string() })),
  /** The latest audit entries about this participant, newest first (the audit trail pages the rest). */
  audit: z.array(z.lazy(() => ConsoleAuditEntry)),
});
export type ConsoleParticipant = z.infer<typeof ConsoleParticipant>;

/** GET statement: newest first, with the running balance after each entry; `after` is the previous page's `next`. */
export const ConsoleStatementQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  after: z.string().max(2000).optional(),
});
export type ConsoleStatementQuery = z.infer<typeof ConsoleStatementQuery>;
export const ConsoleStatementEntry = z.object({
  id: z.string(),
  date: z.string(),
  /** What the participant reads, in the client's default language. */
  description: z.string(),
  amount: z.number().int(),
  runningBalance: z.number().int(),
  kind: z.string(),
  /** A staff or operator adjustment's internal note: never shown to the participant. */
  internalNote: z.string().nullable(),
  /** Who posted it, when an operator or staff member did. */
  postedBy: z.string().nullable(),
});
export type ConsoleStatementEntry = z.infer<typeof ConsoleStatementEntry>;
export const ConsoleStatementPage = z.object({ entries: z.array(ConsoleStatementEntry), next: z.string().nullable() });
export type ConsoleStatementPage = z.infer<typeof ConsoleStatementPage>;

// ---------------------------------------------------------------------------------------------
// Actions: each takes a reason, each leaves an audit entry (who, when, from where, why)

const Reason = z.string().trim().min(3).max(500);

export const LaunchAsRequest = z.object({ reason: Reason });
/** The portal URL on the client's own origin with the single-use token; the app opens it in a new tab. */
export const LaunchAsReply = z.object({ url: z.string(), expiresAt: z.string() });
export type LaunchAsReply = z.infer<typeof LaunchAsReply>;

export const AdjustmentRequest = z.object({
  /** Whole points, not zero: positive credits, negative debits. */
  points: z
    .number()
    .int()
    .min(-10_000_000)
    .max(10_000_000)
    .refine((n) => n !== 0, 'not zero'),
  /** What the participant reads in their history ("Balance adjustment: <text>"). */
  participantText: z.string().trim().min(1).max(200),
  /** Why, for staff and auditors only. */
  internalNote: z.string().trim().min(3).max(500),
  /** Made once per form: the same key posts once, however many times it is sent (double clicks, retries). */
  requestId: z.uuid(),
});
export type AdjustmentRequest = z.infer<typeof AdjustmentRequest>;
export const AdjustmentReply = z.object({
  entryId: z.string(),
  balance: z.number().int(),
  /** For a support agent: what is left of today's limit after this adjustment; null for others. */
  agentLimitLeft: z.number().int().nullable(),
});
export type AdjustmentReply = z.infer<typeof AdjustmentReply>;

export const StatusRequest = z.object({ status: z.string().min(1).max(32), reason: Reason });
export type StatusRequest = z.infer<typeof StatusRequest>;
export const ReasonRequest = z.object({ reason: Reason });
export type ReasonRequest = z.infer<typeof ReasonRequest>;
export const ResendMailRequest = z.object({ mail: z.enum(['activation', 'passwordReset']), reason: Reason });
export type ResendMailRequest = z.infer<typeof ResendMailRequest>;
export const DetailsRequest = z.object({
  firstName: z.string().max(100).optional(),
  lastName: z.string().max(100).optional(),
  email: z.string().max(320).optional(),
  accountNumber: z.string().max(64).optional(),
  reason: Reason,
});
export type DetailsRequest = z.infer<typeof DetailsRequest>;
/** Every action but adjustments and launch-as answers with its audit entry's id; the app then refetches the page. */
export const ActionReply = z.object({ auditId: z.string() });
export type ActionReply = z.infer<typeof ActionReply>;

export const ConsoleClientSettings = z.object({
  /** The most points (credits and debits together) one support agent may adjust per day in this client. */
  agentDailyAdjustmentLimit: z.number().int().min(0).max(100_000_000),
});
export type ConsoleClientSettings = z.infer<typeof ConsoleClientSettings>;
export const ConsoleClientSettingsRequest = ConsoleClientSettings.extend({ reason: Reason });

// ---------------------------------------------------------------------------------------------
// The audit trail (defined here because the participant's page shows its entries too)

export const consoleAuditPaths = {
  /** GET ?staff=&action=&clientId=&participantId=&from=&to=&after=&limit= */
  entries: '/audit',
  /** GET, same filters: text/csv of every matching entry (up to a cap), as a download. */
  csv: '/audit.csv',
} as const;

export const ConsoleAuditQuery = z.object({
  /** An actor's name as recorded (a staff e-mail, an operator's `name@host`, an admin key's name): prefix. */
  staff: z.string().max(320).optional(),
  /** Prefix of the action: "points", "participants.status", "launch-as" … */
  action: z.string().max(100).optional(),
  clientId: z.string().max(64).optional(),
  participantId: z.string().max(64).optional(),
  /** YYYY-MM-DD or ISO; `to` is inclusive of its day when a date. */
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  after: z.string().max(2000).optional(),
});
export type ConsoleAuditQuery = z.infer<typeof ConsoleAuditQuery>;

export const ConsoleAuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  clientId: z.string().nullable(),
  actor: z.string(),
  /** operator (the rewards command) | admin (an API key) | staff (the console) | participant-session | system (the server, unasked) */
  actorKind: z.string(),
  action: z.string(),
  subject: z.string().nullable(),
  /** Where from: an address, `cli@host`. */
  origin: z.string().nullable(),
  reason: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type ConsoleAuditEntry = z.infer<typeof ConsoleAuditEntry>;
export const ConsoleAuditPage = z.object({ entries: z.array(ConsoleAuditEntry), next: z.string().nullable() });
export type ConsoleAuditPage = z.infer<typeof ConsoleAuditPage>;
