import type { Command } from 'commander';
import {
  describePublishedDemo,
  findPublishedDemoCredentials,
  holdsPublishedDemo,
  removePublishedDemoCredentials,
} from '../../db/seed/demo-credentials.ts';
import { action } from '../cli-context.ts';
import { operatorActor } from './audit.ts';

const FIRST_OWNER = 'rewards staff create <email> --name <name> --owner --reason <text>';

/**
 * `rewards demo check|remove` (decision 072): the demo program's published credentials, which a
 * production start refuses. `remove` is what its refusal names; `check` says the same beforehand.
 */
export function registerDemo(program: Command): void {
  const demo = program
    .command('demo')
    .description(
      "the demo program's published credentials (staff, participants' password, catalog partner), which a production start refuses",
    );

  action(demo.command('check').description('list the demo credentials this database holds'), async (db) => {
    const found = await findPublishedDemoCredentials(db);
    const human = holdsPublishedDemo(found)
      ? [
          "This database holds the demo's published credentials (a start with NODE_ENV=production refuses it):",
          ...describePublishedDemo(found).map((line) => `  - ${line}`),
          'Remove them with: rewards demo remove --reason <text>',
        ].join('\n')
      : 'No demo credentials: a start with NODE_ENV=production may serve this database.';
    const { staff, partners, participants } = found;
    return { human, json: { published: holdsPublishedDemo(found), staff, partners, participants } };
  });

  const remove = demo
    .command('remove')
    .description(
      "delete the demo staff, revoke the demo catalog's partner and withdraw its catalogs, and replace the demo participants' published password with one nobody knows (audited)",
    )
    .requiredOption('--reason <text>', 'why, for the audit log (3 to 500 characters)');
  action<{ reason: string }>(remove, async (db, { options, operator }) => {
    const removal = await removePublishedDemoCredentials(db, operatorActor(operator), options.reason);
    const lines =
      removal.auditId === null
        ? ['No demo credentials to remove.']
        : [
            "Removed the demo's published credentials:",
            `  - demo staff deleted: ${removal.staffRemoved.join(', ') || 'none'}`,
            `  - catalog partners revoked: ${removal.partnersRevoked.join(', ') || 'none'}; catalogs withdrawn: ${removal.catalogsWithdrawn}`,
            `  - participants whose published password was replaced: ${removal.participantsLocked} (${removal.sessionsEnded} session(s) ended)`,
          ];
    if (removal.ownersLeft === 0)
      lines.push(`No owner of the console is left: make the first with \`${FIRST_OWNER}\`, which prints their enrolment link.`);
    return { human: lines.join('\n'), json: removal };
  });
}
