import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The commit the bundle was built from: scripts/build-server.ts writes it in (rolldown's define)
 * when it makes dist/main.js, so a production process never asks git. The sources run as they are
 * (tests, `npm run dev`) know none.
 */
declare const REWARDS_BUILD_COMMIT: string | undefined;

export interface BuildInfo {
  /** apps/server/package.json's version. */
  version: string;
  /** The git commit of the build (12 hex digits, "-dirty" when the tree had changes), or "unknown". */
  commit: string;
}

let info: BuildInfo | undefined;

/** What `rewards_build_info` says (decision 079); read once. */
export function buildInfo(): BuildInfo {
  if (info) return info;
  let version = 'unknown';
  try {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version?: unknown };
    if (typeof pkg.version === 'string') version = pkg.version;
  } catch {
    // A tree without the package file still reports, as "unknown".
  }
  const commit = typeof REWARDS_BUILD_COMMIT === 'string' && REWARDS_BUILD_COMMIT !== '' ? REWARDS_BUILD_COMMIT : 'unknown';
  info = { version, commit };
  return info;
}
