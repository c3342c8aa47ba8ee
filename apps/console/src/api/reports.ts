import {
  consoleReportPaths as paths,
  type ClientsComparison,
  type CodesReport,
  type OrdersReport,
  type ParticipantsReport,
  type PointsReport,
} from '@rewards/contract/console-reports';
import { api } from './client.ts';

// The console's reports (issue 20 §5, decision 067): every role of a client reads them; the comparison lists the caller's clients.
export const getParticipantsReport = (clientId: string) => api<ParticipantsReport>('GET', paths.participants(clientId));
export const getPointsReport = (clientId: string, months: number) =>
  api<PointsReport>('GET', paths.points(clientId), { query: { months } });
export const getCodesReport = (clientId: string) => api<CodesReport>('GET', paths.codes(clientId));
export const getOrdersReport = (clientId: string, months: number) =>
  api<OrdersReport>('GET', paths.orders(clientId), { query: { months } });
export const getComparison = (months: number) => api<ClientsComparison>('GET', paths.comparison, { query: { months } });
