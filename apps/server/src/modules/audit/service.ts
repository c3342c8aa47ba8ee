// The audit module's face to the others: they record through it and never write the table
// themselves (decision 053). The trail's reading for the console is trail.ts; the operator's
// `rewards audit` reads through listAudit.
export { listAudit, recordAudit, type AuditActorKind, type AuditQuery, type AuditRecord } from './store.ts';
