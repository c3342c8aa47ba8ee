import { join } from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { createDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedDemoIfEmpty } from './db/seed/demo.ts';
import { startMailDelivery } from './modules/mail/delivery.ts';
import { startDailyExpiry } from './modules/expiry/daily.ts';
import { startImportJobs } from './modules/imports/run.ts';
import { sendExpiryReminders } from './modules/expiry/reminders.ts';

const repoRoot = join(import.meta.dirname, '..', '..', '..');

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  if (config.webDist === undefined) config.webDist = join(repoRoot, 'apps', 'web', 'dist');
  if (config.webDist === '') config.webDist = undefined;
  if (config.consoleDist === undefined) config.consoleDist = join(repoRoot, 'apps', 'console', 'dist');
  if (config.consoleDist === '') config.consoleDist = undefined;

  const db = createDatabase(config.database);
  await migrateToLatest(db);
  // The embedded default starts with the demo program; a PostgreSQL installation only on request.
  if (config.database.dialect === 'sqlite') await seedDemoIfEmpty(db, { dataDir: config.catalog.dataDir });

  const app = await buildApp({ config, db });
  // Sends the outbox after each commit and every few seconds (docs/decisions/017).
  const mail = startMailDelivery({ db, mail: config.mail, log: { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m) } });
  // Points that expire, once a day in each client's zone, then the reminders of what expires next (decisions 057, 061).
  const expiry = startDailyExpiry({
    db,
    log: { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m) },
    afterSteps: [(db, now) => sendExpiryReminders(db, { asOf: now }).then(() => undefined)],
  });
  // Console imports uploaded or confirmed before a restart, or whose process died: previewed or run once their lease lapses (decision 064).
  const imports = startImportJobs(db, { warn: (m) => app.log.warn(m) });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: draining requests`);
    await app.close();
    // A send under way finishes (bounded by the SMTP timeouts) before the database closes.
    await mail.stop();
    await expiry.stop();
    await imports.stop();
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  const where = config.database.dialect === 'sqlite' ? `SQLite ${config.database.path}` : 'PostgreSQL';
  app.log.info(`Rewards portal at ${address.replace('127.0.0.1', 'localhost')} on ${where}`);
  app.log.info(`Staff console at ${config.console.origin}/console/`);
  app.log.info(
    config.mail.smtpUrl
      ? 'Mail goes out over SMTP_URL'
      : `No SMTP_URL: mails are written to ${config.mail.outboxDir} (npm run rewards -- outbox)`,
  );
}

main().catch((error: unknown) => {
  console.error('Start-up failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
