// Webhooks in the console (issue 29 §3, decision 084): an owner, enrolled just now, adds an
// endpoint for Acme (a fresh second factor first) pointing at a receiver of the story's own on
// this machine, sees its signing secret once; a points adjustment of a participant of the story's
// own is then delivered, signed (the receiver verifies it with the standardwebhooks library), and
// shows as delivered with its payload; sent again, it carries the same webhook-id. The secret is
// rotated with an overlap, and the endpoint disabled, then deleted at the end, so nothing more
// goes to the receiver once the story ends (decision 071). Screenshots at 1280 and 768 px into /tmp/shots-settings/.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import {
  ageSecondFactor,
  checkScreen,
  closePage,
  enrolNewStaff,
  expectVisible,
  newParticipant,
  nextTotpCode,
  rewards,
  test,
  unique,
} from './harness/console.ts';

// Both settings pages' stories (API keys, webhooks) shoot into one folder.
const SHOTS = '/tmp/shots-settings';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** The client's receiver: every request kept; Acme's other stories' events arrive too, and are told apart by username. */
async function startReceiver() {
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rewards-hooks`;
  /** The requests about `username` once there are `count` of them (a deadline, no sleep). */
  const about = (username: string, count: number, timeoutMs = 20_000) =>
    new Promise<Received[]>((resolve, reject) => {
      const check = () => {
        const found = received.filter((r) => (JSON.parse(r.body) as { data?: { username?: string } }).data?.username === username);
        if (found.length < count) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`the receiver got ${received.length} requests, not ${count} about ${username}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    url,
    about,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function verify(secret: string, request: Received): { type: string; data: Record<string, unknown> } {
  const headers = {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(request.body, headers) as { type: string; data: Record<string, unknown> };
}

async function openWebhooks(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  await page.getByRole('link', { name: 'Webhooks: events told to your systems' }).click();
  await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
  const chooser = page.getByLabel('Client');
  if ((await chooser.count()) > 0) await chooser.selectOption('acme');
}

test('an owner adds a webhook endpoint, an adjustment is delivered signed and shows as delivered, then sent again', async ({ browser }) => {
  const receiver = await startReceiver();
  const DESCRIPTION = `CRM ${unique()}`;
  const pia = await newParticipant({ firstName: 'Pia', lastName: 'Hooked' });
  const { page, secret: totp, ...owen } = await enrolNewStaff(browser, 'Owen Hooks', 'owner');
  try {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await openWebhooks(page);
    const acme = page.getByRole('region', { name: 'Acme Rewards' });
    await acme.getByRole('button', { name: 'Add an endpoint' }).waitFor();

    await acme.getByRole('button', { name: 'Add an endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook endpoint to Acme Rewards' });
    await dialog.getByLabel('URL').fill(receiver.url);
    await dialog.getByLabel('Description (optional)').fill(DESCRIPTION);
    await expectVisible(dialog.getByRole('checkbox', { name: 'All events, also kinds added later' }));
    await dialog.getByLabel('Reason').fill('CRM integration, ticket 2903');
    await checkScreen(page, '01-webhooks-create', SHOTS);

    // The secret is revealed: a second factor passed more than five minutes ago is asked for again.
    ageSecondFactor(owen.email);
    await dialog.getByRole('button', { name: 'Add the endpoint' }).click();
    const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
    await stepUp.waitFor();
    await stepUp.getByLabel('Code from your authenticator app').fill(await nextTotpCode(totp));
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'detached' });

    const shown = acme.getByTestId('new-webhook-secret');
    const secret = (await shown.textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await acme.getByRole('button', { name: 'Copy' }).click();
    await expectVisible(acme.getByRole('status').getByText('Copied.'));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await checkScreen(page, '02-webhooks-secret-once', SHOTS);
    await acme.getByRole('button', { name: 'I have stored it' }).click();
    await shown.waitFor({ state: 'detached' });
    const row = acme.getByRole('row').filter({ hasText: DESCRIPTION });
    await expectVisible(row.getByText('Enabled'));
    await expectVisible(row.getByText('All events'));

    // An adjustment of Pia's (the operator's command, another process): told, delivered within a second or two, signed.
    await rewards(['points', 'adjust', '--client', 'acme', '--username', pia.username, '--points', '75', '--reason', 'webhook story']);
    const [first] = await receiver.about(pia.username, 1);
    const told = verify(secret, first!);
    expect(told).toMatchObject({
      type: 'points.credited',
      data: { client: 'acme', username: pia.username, points: 75, source: 'adjustment' },
    });

    // The deliveries show it delivered, its answer and payload.
    await row.getByRole('button', { name: `Deliveries to ${receiver.url}` }).click();
    const deliveries = page.getByRole('region', { name: `Deliveries to ${receiver.url}` });
    const delivery = deliveries.getByRole('row').filter({ hasText: pia.username });
    await expectVisible(delivery.getByText('Delivered'));
    await expectVisible(delivery.getByText('Points credited'));
    await expectVisible(delivery.getByText(/^204 at /));
    await delivery.getByText('Show').click();
    await expectVisible(delivery.getByText(`"username": "${pia.username}"`, { exact: false }));
    await checkScreen(page, '03-webhooks-delivered', SHOTS);

    // Sent again: the same webhook-id, verified again.
    const id = String(first!.headers['webhook-id']);
    await delivery.getByRole('button', { name: `Send again: ${id}` }).click();
    await expectVisible(deliveries.getByRole('status').getByText(`${id} will be sent again in a moment.`));
    const [, again] = await receiver.about(pia.username, 2);
    expect(again!.headers['webhook-id']).toBe(id);
    expect(verify(secret, again!).type).toBe('points.credited');
    await expectVisible(delivery.getByText('Delivered'));

    // Rotated with an overlap: both secrets sign meanwhile.
    await row.getByRole('button', { name: `Rotate secret of ${receiver.url}` }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate the signing secret' });
    expect(await rotate.getByLabel('Overlap (hours)').inputValue()).toBe('24');
    await rotate.getByLabel('Reason').fill('Yearly rotation, ticket 2904');
    await checkScreen(page, '04-webhooks-rotate', SHOTS);
    ageSecondFactor(owen.email);
    await rotate.getByRole('button', { name: 'Rotate the secret' }).click();
    const stepUpAgain = page.getByRole('dialog', { name: 'Confirm it is you' });
    await stepUpAgain.waitFor();
    await stepUpAgain.getByLabel('Code from your authenticator app').fill(await nextTotpCode(totp));
    await stepUpAgain.getByRole('button', { name: 'Confirm' }).click();
    await rotate.waitFor({ state: 'detached' });
    const newSecret = (await acme.getByTestId('new-webhook-secret').textContent())!.trim();
    expect(newSecret).not.toBe(secret);
    await acme.getByRole('button', { name: 'I have stored it' }).click();
    await expectVisible(row.getByText(/^Old secret signs too until/));
    await rewards(['points', 'adjust', '--client', 'acme', '--username', pia.username, '--points=-5', '--reason', 'webhook story']);
    const [, , third] = await receiver.about(pia.username, 3);
    expect(verify(secret, third!).type).toBe('points.debited');
    expect(verify(newSecret, third!).data).toMatchObject({ points: -5 });

    // Disabled at the end: nothing more goes to this receiver.
    await row.getByRole('button', { name: `Disable ${receiver.url}` }).click();
    const disable = page.getByRole('dialog', { name: 'Disable this endpoint' });
    await disable.getByLabel('Reason').fill('Story over');
    await disable.getByRole('button', { name: 'Disable' }).click();
    await disable.waitFor({ state: 'detached' });
    await expectVisible(row.getByText('Disabled', { exact: true }));
    await checkScreen(page, '05-webhooks-disabled', SHOTS);

    // Deleted: the endpoint goes with its deliveries.
    await row.getByRole('button', { name: `Delete ${receiver.url}` }).click();
    const remove = page.getByRole('dialog', { name: 'Delete this endpoint' });
    await remove.getByLabel('Reason').fill('CRM retired, ticket 2905');
    await checkScreen(page, '06-webhooks-delete', SHOTS);
    await remove.getByRole('button', { name: 'Delete the endpoint' }).click();
    await remove.waitFor({ state: 'detached' });
    await expectVisible(acme.getByText(`Endpoint ${receiver.url} deleted.`));
    await row.waitFor({ state: 'detached' });
    await deliveries.waitFor({ state: 'detached' });
  } finally {
    await closePage(page);
    await receiver.close();
  }
});
