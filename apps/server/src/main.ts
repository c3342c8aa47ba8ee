import { join } from 'node:path';
import { buildApp } from './app.ts';
import { describeSettings, loadConfig } from './config.ts';
import { usePasswordHashCost } from './modules/auth/password.ts';
import { createDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedDemoIfEmpty } from './db/seed/demo.ts';
import { describePublishedDemo, findPublishedDemoCredentials, holdsPublishedDemo } from './db/seed/demo-credentials.ts';
import { startMailDelivery } from './modules/mail/delivery.ts';
import { startWebhookDelivery } from './modules/webhooks/delivery.ts';
import { startDailyExpiry } from './modules/expiry/daily.ts';
import { releasePendingPoints } from './modules/events/release.ts';
import { startImportJobs } from './modules/imports/run.ts';
import { sendExpiryReminders } from './modules/expiry/reminders.ts';
import { createMetrics } from './modules/metrics/metrics.ts';
import { listenMetrics, type MetricsListener } from './modules/metrics/listener.ts';
import { portalUrlsRefusedInProduction } from './modules/clients/service.ts';
import type { Readiness } from './http/readiness.ts';

const repoRoot = join(import.meta.dirname, '..', '..', '..');

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env, { server: true });
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  usePasswordHashCost(config.passwordHashCost);
  if (config.webDist === undefined) config.webDist = join(repoRoot, 'apps', 'web', 'dist');
  if (config.webDist === '') config.webDist = undefined;
  if (config.consoleDist === undefined) config.consoleDist = join(repoRoot, 'apps', 'console', 'dist');
  if (config.consoleDist === '') config.consoleDist = undefined;

  const db = createDatabase(config.database);
  await migrateToLatest(db);
  let seeded = false;
  if (config.production) {
    // Production serves nothing while the README's passwords and secrets open the database (decision 072).
    const found = await findPublishedDemoCredentials(db);
    if (holdsPublishedDemo(found)) {
      await db.destroy();
      console.error(
        [
          "Refusing to start with NODE_ENV=production: this database holds the demo program's published credentials:",
          ...describePublishedDemo(found).map((line) => `  - ${line}`),
          'Remove them with `rewards demo remove --reason <text>` (npm run rewards -- demo remove --reason "…", with this DATABASE_URL),',
          'and, unless you have one, make your own first owner with `rewards staff create <email> --name <name> --owner --reason <text>`;',
          'or start on a new database.',
        ].join('\n'),
      );
      process.exit(2);
    }
    // Links in mails start at the portal address: never over plain http off this machine (decision 081).
    const refused = await portalUrlsRefusedInProduction(db);
    if (refused.length > 0) {
      await db.destroy();
      console.error(
        [
          'Refusing to start with NODE_ENV=production: a portal address is not https:',
          ...refused.map((r) => `  - ${r.clientId}: ${r.portalUrl} ${r.problem}`),
          'Set it with `rewards clients update <client> --portal-url https://…`.',
        ].join('\n'),
      );
      process.exit(2);
    }
  } else if (config.database.dialect === 'sqlite') {
    // In development the embedded default starts with the demo program; a PostgreSQL installation only on request.
    seeded = await seedDemoIfEmpty(db, { dataDir: config.catalog.dataDir });
  }

  // Prometheus' metrics when METRICS_PORT is set, on a listener of their own (decision 079).
  const metrics = config.metrics ? createMetrics({ db, database: config.database }) : undefined;
  const readiness: Readiness = { draining: false };
  const app = await buildApp({ config, db, metrics, readiness });
  if (seeded)
    app.log.warn(
      'A new database: seeded the demo program, whose passwords are in the README (development only; NODE_ENV=production never does)',
    );
  // Sends the outbox after each commit and every few seconds (docs/decisions/042).
  const mail = startMailDelivery({ db, mail: config.mail, log: { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m) } });
  // Webhooks: the outbox's deliveries after each commit that told one and every second, signed, retried (decision 084).
  const webhooks = startWebhookDelivery({
    db,
    dataDir: config.catalog.dataDir,
    // An endpoint disabled after days of failures is told by mail, linking to its console page.
    consoleOrigin: config.console.origin,
    policy: config.webhooks,
    log: { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m) },
  });
  // Points that expire, once a day in each client's zone, then the reminders of what expires next (decisions 057, 061);
  // before them the pending points whose day has come are released (decision 098): a failed release is logged and
  // retried the next day (or by `rewards events release`), and does not hold the expiry back.
  const expiry = startDailyExpiry({
    db,
    log: { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m) },
    beforeSteps: [
      (db, now) =>
        releasePendingPoints(db, { now: () => now }).then(
          (result) => {
            for (const client of result.clients.filter((c) => c.lines > 0))
              app.log.info(`release ${client.clientId} as of ${client.asOf}: ${client.points} points of ${client.lines} pending lines`);
          },
          // Only the error's name: a database message may quote values.
          (error: unknown) => app.log.warn(`pending points release failed (${(error as Error).name ?? 'error'}); retrying at the next run`),
        ),
    ],
    afterSteps: [(db, now) => sendExpiryReminders(db, { asOf: now }).then(() => undefined)],
  });
  // Console imports uploaded or confirmed before a restart, or whose process died: previewed or run once their lease lapses (decision 064).
  const imports = startImportJobs(db, { warn: (m) => app.log.warn(m) });
  metrics?.watchExpiry(() => expiry.lastRuns());
  let metricsListener: MetricsListener | undefined;
  let stopping = false;
  // SIGTERM (decision 081): /readyz turns 503 at once and requests are served DRAIN_SECONDS more,
  // for the proxy's health check to notice; then the listener closes (keep-alive connections after
  // their reply), requests under way finish, the jobs end their batch and free their leases, a
  // mail being sent is sent, and the process exits 0. A second signal, or a stop longer than the
  // bound, exits 1 at once.
  const shutdown = async (signal: string) => {
    if (stopping) {
      console.error(`${signal} again while stopping: exiting without waiting for the work under way`);
      process.exit(1);
    }
    stopping = true;
    readiness.draining = true;
    const boundSeconds = config.drainSeconds + STOP_BOUND_SECONDS;
    // Referenced on purpose: a stop that hangs ends here with 1, never as a quiet exit 0 of an empty loop.
    setTimeout(() => {
      console.error(`Stopping took over ${boundSeconds} s: exiting without waiting for the work under way`);
      process.exit(1);
    }, boundSeconds * 1000);
    app.log.info(`${signal}: /readyz answers 503; serving ${config.drainSeconds} s more before draining`);
    await new Promise((resolve) => setTimeout(resolve, config.drainSeconds * 1000));
    // Logged in the turn that starts app.close(), which marks the app draining (a test waits for it).
    app.log.info(`${signal}: draining requests`);
    await Promise.all([
      // The console's import runs are stopped by the app's own onClose, once its requests are done.
      app.close().then(() => metricsListener?.close()),
      expiry.stop(),
      imports.stop(),
    ]);
    // After the requests: a mail they queued is still sent. A send under way finishes (bounded by the SMTP timeouts;
    // a webhook's by its 10 s; one not yet tried is delivered by the next process).
    await Promise.all([mail.stop(), webhooks.stop()]);
    await db.destroy();
    app.log.info(`${signal}: stopped`);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  if (metrics && config.metrics) {
    metricsListener = await listenMetrics(metrics, config.metrics);
  }
  // One line of what this process runs with, never a secret (decision 081).
  app.log.info(`Rewards portal at ${address.replace('127.0.0.1', 'localhost')}: ${describeSettings(config, metricsListener?.address)}`);
}

/** Seconds a stop may take beyond DRAIN_SECONDS before the process exits without waiting (decision 081). */
const STOP_BOUND_SECONDS = 30;

main().catch((error: unknown) => {
  console.error('Start-up failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
