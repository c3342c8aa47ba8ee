import type { ParticipantSearchReply } from '@rewards/contract/participant-search';
import {
  consoleAuditPaths,
  consoleParticipantPaths as paths,
  type ActionReply,
  type AdjustmentReply,
  type AdjustmentRequest,
  type ConsoleAuditPage,
  type ConsoleAuditQuery,
  type ConsoleClientSettings,
  type ConsoleParticipant,
  type ConsoleStatementPage,
  type DetailsRequest,
  type LaunchAsReply,
  type ResendMailRequest,
} from '@rewards/contract/console-participants';
import type { ConsoleParticipantEventsPage } from '@rewards/contract/events';
import { api, apiUrl } from './client.ts';

// The participant API of the console (console-participants.ts of the contract).

export const searchParticipants = (q: string, after?: string, limit = 50) =>
  api<ParticipantSearchReply>('GET', paths.search, { query: { q, after, limit } });
export const getParticipant = (clientId: string, id: string) => api<ConsoleParticipant>('GET', paths.participant(clientId, id));
export const getStatement = (clientId: string, id: string, after?: string, limit = 50) =>
  api<ConsoleStatementPage>('GET', paths.statement(clientId, id), { query: { after, limit } });

/** The participant's events, newest first (decision 097); the path is the participant's own and /events. */
export const getEvents = (clientId: string, id: string, after?: string, limit = 20) =>
  api<ConsoleParticipantEventsPage>('GET', `${paths.participant(clientId, id)}/events`, { query: { after, limit } });

export const launchAs = (clientId: string, id: string, reason: string) =>
  api<LaunchAsReply>('POST', paths.launchAs(clientId, id), { body: { reason } });
export const adjust = (clientId: string, id: string, body: AdjustmentRequest) =>
  api<AdjustmentReply>('POST', paths.adjustments(clientId, id), { body });
export const setStatus = (clientId: string, id: string, status: string, reason: string) =>
  api<ActionReply>('POST', paths.status(clientId, id), { body: { status, reason } });
export const unlock = (clientId: string, id: string, reason: string) =>
  api<ActionReply>('POST', paths.unlock(clientId, id), { body: { reason } });
export const endSessions = (clientId: string, id: string, reason: string) =>
  api<ActionReply>('POST', paths.endSessions(clientId, id), { body: { reason } });
export const resendMail = (clientId: string, id: string, body: ResendMailRequest) =>
  api<ActionReply>('POST', paths.resendMail(clientId, id), { body });
export const correctDetails = (clientId: string, id: string, body: DetailsRequest) =>
  api<ActionReply>('POST', paths.details(clientId, id), { body });

export const getSettings = (clientId: string) => api<ConsoleClientSettings>('GET', paths.settings(clientId));
export const putSettings = (clientId: string, body: ConsoleClientSettings & { reason: string }) =>
  api<ConsoleClientSettings>('PUT', paths.settings(clientId), { body });

export type AuditFilters = Omit<ConsoleAuditQuery, 'limit' | 'after'>;
export const getAudit = (filters: AuditFilters, after?: string, limit = 50) =>
  api<ConsoleAuditPage>('GET', consoleAuditPaths.entries, { query: { ...filters, after, limit } });
export const auditCsvUrl = (filters: AuditFilters) => apiUrl(consoleAuditPaths.csv, { ...filters });
