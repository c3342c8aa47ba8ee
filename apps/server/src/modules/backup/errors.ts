/** A reason the operator can act on (a path taken, a live database, different keys, a damaged backup): nothing was changed. */
export class BackupRefused extends Error {}
