import type { Db } from '../../db/database.ts';
import { recordAudit } from '../audit/service.ts';
import type { Actor } from '../participants/operator-service.ts';

/** Each changed setting's value before and after (a secret's never: only that it changed). */
export type SettingsChanges = Record<string, unknown>;

/**
 * The one audit entry of a settings change (issue 20 §3): action `clients.settings`, the client as
 * its subject, each changed setting with its before and after, and the reason when one was given.
 * Written in the change's own transaction, so the change and its record stand or fall together.
 */
export function auditSettingsChange(trx: Db, actor: Actor, clientId: string, changes: SettingsChanges, reason?: string): Promise<string> {
  return recordAudit(trx, {
    clientId,
    actor: actor.name,
    actorKind: actor.kind,
    action: 'clients.settings',
    subject: clientId,
    details: { ...changes, ...(reason === undefined ? {} : { reason }) },
    origin: actor.origin,
  });
}

/** The before and after of each named setting. */
export function changesOf<T extends object>(keys: readonly (keyof T & string)[], from: T, to: T): SettingsChanges {
  return Object.fromEntries(keys.map((key) => [key, { from: from[key], to: to[key] }]));
}

/**
 * The one audit entry of an operator's `clients create|update` (decision 089): `clients.create` or
 * `clients.update`, the client as its subject, the names of the settings changed and, for an update,
 * each one's before and after. Written in the change's own transaction.
 */
export function auditClientChange(
  trx: Db,
  actor: Actor,
  mode: 'create' | 'update',
  clientId: string,
  details: Record<string, unknown>,
  now: Date,
): Promise<string> {
  return recordAudit(
    trx,
    { clientId, actor: actor.name, actorKind: actor.kind, action: `clients.${mode}`, subject: clientId, details, origin: actor.origin },
    now,
  );
}
