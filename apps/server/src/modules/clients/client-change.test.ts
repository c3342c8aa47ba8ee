import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../http/api-error.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import type { Actor } from '../participants/operator-service.ts';
import { readCatalogSettings } from './catalog-settings.ts';
import { applyClientChange, type ClientChange } from './client-change.ts';
import { readLocaleSettings } from './locale-settings.ts';
import { readClient } from './service.ts';

const operator: Actor = { name: 'ops-test', kind: 'operator', origin: 'cli@test' };
const change = (values: Partial<ClientChange>): ClientChange => ({
  addHosts: [],
  removeHosts: [],
  mediaLabels: [],
  catalogs: {},
  newPartnerSecrets: [],
  ...values,
});

/** The module's create and update of a client (decision 089), called as `rewards clients` calls it, on both engines. */
describe.each(dialects)('creating and changing a client through the module on %s', (dialect) => {
  let database: TestDatabase;
  // Own names: nothing here is shared with another test's rows.
  const id = `cc-${randomUUID().slice(0, 8)}`;
  const host = `${id}.rewards.example`;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(() => database.drop());

  const auditOf = async () =>
    (
      await database.db
        .selectFrom('audit_log')
        .select(['action', 'actor', 'actor_kind', 'details'])
        .where('client_id', '=', id)
        .orderBy('at')
        .execute()
    ).map((a) => ({ ...a, details: JSON.parse(a.details) as Record<string, unknown> }));

  it('creates a client with its defaults and one clients.create entry by the operator', async () => {
    const outcome = await applyClientChange(database.db, operator, {
      mode: 'create',
      clientId: id,
      change: change({
        name: 'Change Co',
        addHosts: [host],
        catalogs: { merchandise: { url: 'https://shop.example/p', partnerId: `${id}-shop` } },
      }),
    });
    expect(outcome).toMatchObject({ client: id, created: true, hostsAdded: [host] });
    expect(outcome.secrets.map((s) => s.partnerId)).toEqual([`${id}-shop`]);
    expect(await readClient(database.db, id)).toMatchObject({ name: 'Change Co', portal_url: `https://${host}`, default_locale: 'en-US' });
    expect((await readCatalogSettings(database.db, id)).merchandise).toEqual({ url: 'https://shop.example/p', partnerId: `${id}-shop` });
    const [entry] = await auditOf();
    expect(entry).toMatchObject({ action: 'clients.create', actor: 'ops-test', actor_kind: 'operator' });
    expect(entry?.details).toMatchObject({ originsAdded: [host], partnerSecretsIssued: [`${id}-shop`] });
    expect(JSON.stringify(entry?.details)).not.toContain(outcome.secrets[0]?.secret);
  });

  it('changes several sections at once, before and after in one clients.update entry', async () => {
    const outcome = await applyClientChange(database.db, operator, {
      mode: 'update',
      clientId: id,
      change: change({
        name: 'Change Co Rewards',
        locales: [
          { code: 'en-US', dir: 'ltr', name: 'English' },
          { code: 'fr-FR', dir: 'ltr', name: 'Français' },
        ],
        defaultLocale: 'fr-FR',
        mediaLabels: [{ locale: 'fr-FR', forms: { one: 'point', other: 'points' } }],
        travel: 'https://travel.example',
      }),
    });
    expect(outcome.changed.sort()).toEqual(['catalogs.travel', 'defaultLocale', 'locales', 'mediaLabels', 'name']);
    expect(await readLocaleSettings(database.db, id)).toMatchObject({
      defaultLocale: 'fr-FR',
      mediaLabels: [{ locale: 'fr-FR', forms: { one: 'point', other: 'points' } }],
    });
    const update = (await auditOf()).find((e) => e.action === 'clients.update');
    expect(update?.action).toBe('clients.update');
    expect(update?.details.changes).toMatchObject({
      name: { from: 'Change Co', to: 'Change Co Rewards' },
      locales: { from: ['en-US'], to: ['en-US', 'fr-FR'] },
    });
  });

  it('refuses a change whose last part is wrong in the caller’s words, and leaves all of it undone', async () => {
    const before = await readClient(database.db, id);
    const entries = (await auditOf()).length;
    const refused = applyClientChange(database.db, operator, {
      mode: 'update',
      clientId: id,
      change: change({ name: 'Never', brandColor: '#000000', portalUrl: 'https://elsewhere.example' }),
    });
    await expect(refused).rejects.toThrow(ApiError);
    await expect(refused).rejects.toThrow(`the portal address: elsewhere.example is not an origin of ${id} (add it with the origin)`);
    expect(await readClient(database.db, id)).toEqual(before);
    expect(await auditOf()).toHaveLength(entries);

    await expect(applyClientChange(database.db, operator, { mode: 'update', clientId: `${id}-x`, change: change({}) })).rejects.toThrow(
      `Unknown client "${id}-x"`,
    );
    await expect(
      applyClientChange(database.db, operator, { mode: 'create', clientId: id, change: change({ name: 'X', addHosts: ['x.example'] }) }),
    ).rejects.toThrow(`Client "${id}" already exists (change its settings)`);
  });
});
