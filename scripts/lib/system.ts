/**
 * System packages the tests need beyond npm: Debian's Chromium for the browser tests,
 * PostgreSQL's server binaries for the API tests, Prometheus (and its promtool) for the metrics'
 * tests (decision 079), Caddy for the rolling-restart test and deploy/Caddyfile's check (decision 082),
 * and a font that renders Arabic.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findPostgresBin } from './postgres.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const PROMETHEUS = '/usr/bin/prometheus';
export const CADDY = '/usr/bin/caddy';

export interface Requirement {
  apt: string;
  why: string;
  present: () => boolean;
}

export const requirements = {
  chromium: { apt: 'chromium', why: 'browser tests', present: () => existsSync(CHROMIUM) },
  postgresql: { apt: 'postgresql', why: 'API tests on PostgreSQL', present: () => findPostgresBin() !== undefined },
  // The server's tests scrape the portal with a real Prometheus and check the alert rules with promtool (same package).
  prometheus: { apt: 'prometheus', why: 'the metrics scraped by a real Prometheus', present: () => existsSync(PROMETHEUS) },
  // The rolling-restart test runs the portal behind a real Caddy, and deploy/Caddyfile is checked with `caddy validate` (decision 082).
  caddy: { apt: 'caddy', why: 'the rolling restart behind a real Caddy', present: () => existsSync(CADDY) },
  // Without it Chromium draws Arabic as empty boxes: needed by the screenshots, not by the tests.
  arabicFont: {
    apt: 'fonts-noto-core',
    why: 'Arabic text in the browser',
    present: () => existsSync('/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf'),
  },
} satisfies Record<string, Requirement>;

/**
 * Installs what is missing with apt-get when we are root; otherwise throws with the exact
 * command to run. Never skips: a missing tool is either installed or an error.
 */
export function ensureSystemPackages(needed: Requirement[]): void {
  const missing = needed.filter((r) => !r.present());
  if (missing.length === 0) return;
  const names = missing.map((r) => r.apt).join(' ');
  const list = missing.map((r) => `${r.apt} (${r.why})`).join(', ');
  if (process.getuid?.() !== 0) {
    throw new Error(`Missing system packages: ${list}.\nInstall them as root: apt-get update && apt-get install -y ${names}`);
  }
  console.log(`Installing missing system packages: ${list}`);
  execFileSync('bash', ['-c', `apt-get update && apt-get install -y ${names}`], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const still = missing.filter((r) => !r.present());
  if (still.length > 0) throw new Error(`apt-get ran but these are still missing: ${still.map((r) => r.apt).join(' ')}`);
}
