// Roles in the browser (issue 17, sections 2 and 6): an auditor reads Dana's page without a
// single action button and is refused when calling one directly; the audit trail filters and
// exports; an owner manages staff (after a step-up) and a client's settings.
import { expect, inject } from 'vitest';
import {
  checkScreen,
  closePage,
  DEMO_STAFF,
  expectVisible,
  findParticipant,
  nextTotpCode,
  openConsole,
  openConsoleAs,
  rewards,
  signInConsole,
  test,
} from './harness/console.ts';

test('an auditor sees no action buttons and gets 403 calling one directly; the audit trail filters and exports', async ({ browser }) => {
  const page = await openConsole(browser);
  await signInConsole(page, DEMO_STAFF.auditor.email, DEMO_STAFF.auditor.secret);
  const row = await findParticipant(page, 'demo@example.com', /Dana Demo/);
  await row.click();
  await page.getByRole('heading', { name: /Dana Demo/, level: 1 }).waitFor();
  await expectVisible(page.getByText('Your role here is read-only.'));
  expect(await page.getByRole('group', { name: 'Actions' }).count()).toBe(0);
  for (const name of ['Launch as participant', 'Adjust points', 'Set status', 'Unlock', 'End sessions', 'Resend mail', 'Correct details']) {
    expect(await page.getByRole('button', { name }).count(), name).toBe(0);
  }
  await checkScreen(page, '20-participant-auditor');
  // The server does not rely on the missing buttons.
  const path = new URL(page.url()).pathname.replace('/console/participants/', '');
  const status = await page.evaluate(async (p) => {
    const [clientId, id] = p.split('/');
    const reply = await fetch(`/api/console/v1/clients/${clientId}/participants/${id}/adjustments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ points: 1000, participantText: 'x', internalNote: 'not allowed', requestId: crypto.randomUUID() }),
    });
    return reply.status;
  }, path);
  expect(status).toBe(403);

  // The audit trail, filtered by action: the operator's command beside the console's actions;
  // the CSV link carries the same filters.
  await rewards(['clients', 'update', '--client', 'acme', '--portal-url', inject('baseUrl')]);
  await page.getByRole('link', { name: 'Audit trail' }).click();
  await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
  await page.getByLabel('Action').fill('clients.update');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL((url) => url.searchParams.get('action') === 'clients.update');
  const table = page.getByRole('table', { name: 'Audit trail' });
  await expectVisible(table.getByText('clients.update'));
  expect(await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(
    '/api/console/v1/audit.csv?action=clients.update',
  );
  await checkScreen(page, '21-audit');
  const csv = await page.evaluate(async () => (await fetch('/api/console/v1/audit.csv?action=clients.update')).text());
  expect(csv).toContain('clients.update');
  await closePage(page);
});

test('an owner sees staff and settings; a staff change asks for a fresh second factor, then goes through', async ({ browser }) => {
  const page = await openConsoleAs(browser, 'owner');
  await page.getByRole('link', { name: 'Staff' }).click();
  const table = page.getByRole('table', { name: 'Staff' });
  await expectVisible(table.getByText('agent@acme.example'));
  await checkScreen(page, '30-staff');

  await page.getByRole('button', { name: 'Invite staff' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite staff' });
  await invite.getByLabel('E-mail').fill('new.agent@acme.example');
  await invite.getByLabel('Name').fill('Nina New');
  await invite.getByLabel('Acme Rewards').selectOption('support_agent');
  await invite.getByLabel('Reason').fill('New hire, ticket HR-12');
  await checkScreen(page, '31-staff-invite');
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  // The sign-in's factor is older than five minutes or not: either way the invitation ends up sent,
  // after the step-up when the server asks for it.
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  const sent = page.getByRole('status').getByText('Invitation sent to new.agent@acme.example.');
  await stepUp.or(sent).first().waitFor();
  if (await stepUp.isVisible()) {
    await checkScreen(page, '32-step-up');
    await stepUp.getByLabel('Code from your authenticator app').fill(await nextTotpCode(DEMO_STAFF.owner.secret));
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
  }
  await expectVisible(sent);
  await expectVisible(table.getByText('new.agent@acme.example'));

  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Client settings' }).waitFor();
  await expectVisible(page.getByRole('region', { name: 'Acme Rewards' }).getByText(/daily adjustment limit/));
  await checkScreen(page, '33-settings');
  await closePage(page);
});
