import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { SessionPolicy } from '../modules/sessions/service.ts';
import type { SessionGuard } from '../modules/sessions/session-guard.ts';

/** What every module's routes are built from: one object, so adding a module touches no other. */
export interface ModuleDeps {
  config: Config;
  db: Db;
  sessionPolicy: SessionPolicy;
  /** preHandler of signed-in-only routes (401 without a live session of this client). */
  requireSession: SessionGuard;
}
