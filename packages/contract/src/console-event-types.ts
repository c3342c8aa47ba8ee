import { z } from 'zod';

/**
 * A client's event types (issue 32 §1, docs/decisions/100): `purchase` and `return` built in,
 * others declared by the program manager (`course.completed`) with a description of what the
 * client's system sends, and retired with a reason. A type an earning rule earns on counts as
 * declared (decision 097's rule-as-declaration keeps working). Every role of the client reads;
 * program managers and owners declare and retire, audited.
 */
const seg = encodeURIComponent;

/** The console's paths, under /api/console/v1. */
export const consoleEventTypesPaths = {
  /** GET: the client's event types (ConsoleEventTypeList); POST: declare one (ConsoleEventTypeDeclareRequest → ConsoleEventTypeReply, 201). */
  types: (clientId: string) => `/clients/${seg(clientId)}/event-types`,
  /** POST: retire a declared type with a reason (ConsoleEventTypeRetireRequest → ConsoleEventTypeReply). */
  retire: (clientId: string, name: string) => `/clients/${seg(clientId)}/event-types/${seg(name)}/retire`,
} as const;

export const DECLARED_EVENT_TYPE_MAX = 64;
/**
 * A declared type's name: lower-case dotted words (`course.completed`, `survey.answered`), each
 * word a letter then letters, digits, `_` or `-`. Stricter than what a rule accepts (no empty
 * word, no leading or trailing dot), so what is declared reads as a name.
 */
export const DECLARED_EVENT_TYPE_PATTERN = /^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*$/;

export const DeclaredEventTypeName = z
  .string()
  .trim()
  .min(1, { message: 'the name is empty' })
  .max(DECLARED_EVENT_TYPE_MAX, { message: `the name is longer than ${DECLARED_EVENT_TYPE_MAX} characters` })
  .regex(DECLARED_EVENT_TYPE_PATTERN, {
    message: 'the name is lower-case dotted words such as course.completed (letters, digits, _ and - inside a word)',
  });

export const ConsoleEventTypesParams = z.object({ clientId: z.string().min(1).max(64) });
export const ConsoleEventTypeParams = z.object({
  clientId: z.string().min(1).max(64),
  name: z
    .string()
    .min(1)
    .max(DECLARED_EVENT_TYPE_MAX * 2),
});

const Reason = z.string().trim().min(3).max(500);

/** Declare a type: its name and what it means (what the client's system sends, when). The name is checked by the service with every problem named. */
export const ConsoleEventTypeDeclareRequest = z.object({
  name: z.string().max(DECLARED_EVENT_TYPE_MAX * 2),
  description: z.string().trim().max(500),
});
export type ConsoleEventTypeDeclareRequest = z.infer<typeof ConsoleEventTypeDeclareRequest>;

export const ConsoleEventTypeRetireRequest = z.object({ reason: Reason });
export type ConsoleEventTypeRetireRequest = z.infer<typeof ConsoleEventTypeRetireRequest>;

/**
 * One of the client's event types. origin: built in; declared by the program manager; or only
 * earned on by rules (never declared: decision 097's rules-as-declaration). A retired type is no
 * longer taken from the client's systems (events of it are refused) until it is declared again.
 */
export const EventTypeView = z.object({
  name: z.string(),
  origin: z.enum(['built-in', 'declared', 'rule']),
  description: z.string(),
  declaredAt: z.string().nullable(),
  declaredBy: z.string().nullable(),
  retired: z.object({ at: z.string(), by: z.string(), reason: z.string() }).nullable(),
  /** The client's rules that earn on it (any state), by id. */
  rules: z.array(z.string()),
});
export type EventTypeView = z.infer<typeof EventTypeView>;

export const ConsoleEventTypeList = z.object({ types: z.array(EventTypeView) });
export type ConsoleEventTypeList = z.infer<typeof ConsoleEventTypeList>;

export const ConsoleEventTypeReply = z.object({ type: EventTypeView });
export type ConsoleEventTypeReply = z.infer<typeof ConsoleEventTypeReply>;
