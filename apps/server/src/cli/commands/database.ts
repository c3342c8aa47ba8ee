import type { Command } from 'commander';
import { demoSeeded, seedDemo } from '../../db/seed/demo.ts';
import { loadConfig } from '../../config.ts';
import { action } from '../cli-context.ts';

export function registerDatabase(program: Command): void {
  action(program.command('migrate').description('run database migrations'), async () => ({ human: 'Migrations are up to date.', json: { migrated: true } }));
  action(program.command('seed-demo').description('add the demo programs (Acme Rewards and its neighbour) if they are not there'), async (db) => {
    if (await demoSeeded(db)) return { human: 'The demo program is already there.', json: { seeded: false } };
    await seedDemo(db, new Date(), { dataDir: loadConfig().catalog.dataDir });
    return { human: 'Seeded the demo program "Acme Rewards" (users demo, spent, newbie, pending, inactive, merch) and the console\'s demo staff.', json: { seeded: true } };
  });
}
