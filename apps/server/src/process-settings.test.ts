import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_ENV, SERVER_NODE_FLAGS } from './process-settings.ts';

describe('the settings the server process starts with', () => {
  it('are the ones npm start uses', () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const start = pkg.scripts.start ?? '';
    for (const [name, value] of Object.entries(SERVER_ENV)) expect(start).toContain(`${name}=${value} `);
    for (const flag of SERVER_NODE_FLAGS) expect(start).toContain(` ${flag} `);
    expect(start).toMatch(/scripts\/start\.ts$/);
  });
});
