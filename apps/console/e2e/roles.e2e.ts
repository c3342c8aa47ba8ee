// Roles in the browser (issue 17, sections 2 and 6): an auditor reads Dana's page without a
// single action button and is refused when calling one directly; the audit trail filters and
// exports; an owner manages staff (after a step-up) and a client's settings. The staff and the
// invited person are the stories' own; Dana (the seed's demo) is only read (decision 071).
import { expect, inject } from 'vitest';
import {
  ageSecondFactor,
  checkScreen,
  closePage,
  enrolNewStaff,
  expectVisible,
  findParticipant,
  nextTotpCode,
  openConsole,
  rewards,
  signInConsole,
  staffEmail,
  test,
} from './harness/console.ts';

test('an auditor sees no action buttons and gets 403 calling one directly; the audit trail filters and exports', async ({ browser }) => {
  const { page: enrolled, ...auditor } = await enrolNewStaff(browser, 'Ada Auditor', 'auditor');
  await closePage(enrolled);
  const page = await openConsole(browser);
  await signInConsole(page, auditor.email, auditor.secret);
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
  // the CSV link carries the same filters. The command sets what the harness set already (Acme's
  // portal address): audited, and nothing changes for the other stories.
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
  const { page, ...olivia } = await enrolNewStaff(browser, 'Olivia Owner', 'owner');
  const invited = staffEmail('Nina New');
  await page.getByRole('link', { name: 'Staff' }).click();
  const table = page.getByRole('table', { name: 'Staff' });
  await expectVisible(table.getByText(olivia.email));
  await checkScreen(page, '30-staff');

  await page.getByRole('button', { name: 'Invite staff' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite staff' });
  await invite.getByLabel('E-mail').fill(invited);
  await invite.getByLabel('Name').fill('Nina New');
  await invite.getByLabel('Acme Rewards').selectOption('support_agent');
  await invite.getByLabel('Reason').fill('New hire, ticket HR-12');
  await checkScreen(page, '31-staff-invite');
  // The enrolment's factor, made six minutes old: the invitation asks for the step-up first.
  ageSecondFactor(olivia.email);
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  await stepUp.waitFor();
  await checkScreen(page, '32-step-up');
  await stepUp.getByLabel('Code from your authenticator app').fill(await nextTotpCode(olivia.secret));
  await stepUp.getByRole('button', { name: 'Confirm' }).click();
  await expectVisible(page.getByRole('status').getByText(`Invitation sent to ${invited}.`));
  await expectVisible(table.getByText(invited));

  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Client settings' }).waitFor();
  await expectVisible(page.getByRole('region', { name: 'Acme Rewards' }).getByText(/daily adjustment limit/));
  await checkScreen(page, '33-settings');
  await closePage(page);
});
