import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseBundles } from './base-bundles.ts';
import { isServerOnlyKey, SERVER_ONLY_KEY_GROUPS } from './server-only-keys.ts';

const WEB_SOURCES = join(import.meta.dirname, '..', '..', '..', '..', 'web', 'src');

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("the server's own texts", () => {
  it('are never named by the web app, which is not sent them', () => {
    const naming = new RegExp(`['"\`](${SERVER_ONLY_KEY_GROUPS.join('|')})\\.`);
    const files = sourcesUnder(WEB_SOURCES);
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.filter((file) => naming.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('are the mails and statement lines, and nothing a screen shows', () => {
    const english = baseBundles.get('en-US') ?? {};
    const serverOnly = Object.keys(english).filter(isServerOnlyKey);
    expect(serverOnly).toContain('mail.greeting');
    expect(serverOnly).toContain('contactMail.intro');
    expect(serverOnly).toContain('ledger.ots.redeemed');
    expect(serverOnly.filter((key) => /^(login|home|activity|error|ots)\./.test(key))).toEqual([]);
  });
});
