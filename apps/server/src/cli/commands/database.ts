import type { Command } from 'commander';
import { demoSeeded, seedDemo } from '../../db/seed/demo.ts';
import { addMissingDemoStaff } from '../../db/seed/demo-staff.ts';
import { loadConfig } from '../../config.ts';
import { action, CliError } from '../cli-context.ts';

export function registerDatabase(program: Command): void {
  // `migrate` is commands/migrate.ts (docs/decisions/080): it reports what it applied, and --status.
  action(
    program.command('seed-demo').description('add the demo programs (Acme Rewards and its neighbour) if they are not there'),
    async (db) => {
      // Its passwords and secrets are in the README: a production start would refuse the database (decision 072).
      if (loadConfig().production)
        throw new CliError('the demo program is never seeded with NODE_ENV=production: its passwords are published');
      if (await demoSeeded(db)) {
        // A demo database from before the console gets the console's demo staff (decision 046).
        const staffAdded = await addMissingDemoStaff(db, loadConfig().catalog.dataDir);
        const human = `The demo program is already there.${staffAdded > 0 ? ` Added ${staffAdded} demo staff of the console.` : ''}`;
        return { human, json: { seeded: false, staffAdded } };
      }
      await seedDemo(db, new Date(), { dataDir: loadConfig().catalog.dataDir });
      return {
        human:
          'Seeded the demo program "Acme Rewards" (users demo, spent, newbie, pending, inactive, merch) and the console\'s demo staff.',
        json: { seeded: true },
      };
    },
  );
}
