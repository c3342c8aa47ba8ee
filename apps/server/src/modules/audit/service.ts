// The audit module's face to the others: they record through it and never write the table
// themselves (decision 053). The trail's reading for the console is trail.ts.
export { recordAudit, type AuditActorKind, type AuditRecord } from './store.ts';
