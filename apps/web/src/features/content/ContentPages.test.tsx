import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RequestError } from '../../api/client.ts';
import { renderWithApp } from '../../test/render.tsx';
import { enUS, makeUser } from '../../test/fixtures.ts';
import ContactPage from './ContactPage.tsx';
import FaqsPage from './FaqsPage.tsx';
import PrivacyNoticePage from './PrivacyNoticePage.tsx';
import PrivacyPolicyPage from './PrivacyPolicyPage.tsx';
import RulesPage from './RulesPage.tsx';

const content = (value: string, locale = 'en-US') => ({ properties: [{ value, locale, updatedAt: '2026-01-01T00:00:00.000Z' }] });
const serverError = (status: number, responseMessage: string) =>
  new RequestError({ status, errorCode: 60004, responseMessage, message: 'x' });

/** A fake API answering by path. */
function answers(routes: Record<string, unknown | ((body: unknown) => unknown)>) {
  return ((method: string, path: string, options?: { body?: unknown }) => {
    const key = `${method} ${path.split('?')[0]}`;
    if (!(key in routes)) return Promise.reject(new Error(`no fake answer for ${key}`));
    const answer = routes[key];
    const value = typeof answer === 'function' ? (answer as (body: unknown) => unknown)(options?.body) : answer;
    return value instanceof Error ? Promise.reject(value) : Promise.resolve(value);
  }) as never;
}

describe('the rules page', () => {
  it('shows one section per program with its rules', async () => {
    renderWithApp(<RulesPage />, {
      user: makeUser(),
      request: answers({
        'GET /user/program-names': { participantRules: ['Sales Incentive 2026', 'Service Awards'] },
        'GET /cmmo/key/honeycombSystem/rules.Sales%20Incentive%202026': content('<p>Win new customers.</p>'),
        'GET /cmmo/key/honeycombSystem/rules.Service%20Awards': content('<p>Thanks for your years.</p>'),
      }),
    });
    const sales = await screen.findByRole('region', { name: 'Sales Incentive 2026' });
    expect(within(sales).getByText('Win new customers.')).toBeInTheDocument();
    const service = screen.getByRole('region', { name: 'Service Awards' });
    expect(within(service).getByText('Thanks for your years.')).toBeInTheDocument();
  });

  it('says when a program has no published rules, and reports other failures as exportRules errors', async () => {
    const { store } = renderWithApp(<RulesPage />, {
      user: makeUser(),
      request: answers({
        'GET /user/program-names': { participantRules: ['Sales Incentive 2026', 'Service Awards'] },
        'GET /cmmo/key/honeycombSystem/rules.Sales%20Incentive%202026': serverError(404, 'content.error.notFound'),
        'GET /cmmo/key/honeycombSystem/rules.Service%20Awards': serverError(403, 'content.error.notYourProgram'),
      }),
    });
    const sales = await screen.findByRole('region', { name: 'Sales Incentive 2026' });
    expect(within(sales).getByText('This text is not available yet.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('These rules belong to a program you are not part of.');
    expect(store.getState().errors.map((e) => e.errorType)).toEqual(['exportRules']);
  });

  it('tells a participant without programs that there are no rules', async () => {
    renderWithApp(<RulesPage />, {
      user: makeUser({ participantRules: [] }),
      request: answers({ 'GET /user/program-names': { participantRules: [] } }),
    });
    expect(await screen.findByText('You are not part of a program with published rules.')).toBeInTheDocument();
  });
});

describe('the FAQs page', () => {
  it('turns each question into a closed accordion item that opens on click', async () => {
    renderWithApp(<FaqsPage />, {
      request: answers({
        'GET /cmmo/key/honeycombSystem/faqs': content(
          '<h2>What are Acme Points?</h2>\n<p>The reward currency.</p>\n<h2>Do points expire?</h2>\n<ul><li>After 24 months.</li></ul>',
        ),
      }),
    });
    const question = await screen.findByText('What are Acme Points?');
    const items = document.querySelectorAll('details');
    expect(items).toHaveLength(2);
    expect(items[0]).not.toHaveAttribute('open');
    await userEvent.setup().click(question);
    expect(items[0]).toHaveAttribute('open');
    expect(within(items[0] as HTMLElement).getByText('The reward currency.')).toBeVisible();
    expect(within(items[1] as HTMLElement).getByText('After 24 months.')).toBeInTheDocument();
  });

  it('shows an error with a way to try again', async () => {
    let calls = 0;
    renderWithApp(<FaqsPage />, {
      request: answers({
        'GET /cmmo/key/honeycombSystem/faqs': () => (++calls === 1 ? serverError(500, 'error.internal') : content('<h2>Q?</h2><p>A.</p>')),
      }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong on our side.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Q?')).toBeInTheDocument();
  });
});

describe('the privacy pages', () => {
  it('shows the policy to an anonymous visitor, marking text served in another language', async () => {
    const { request } = renderWithApp(<PrivacyPolicyPage />, {
      // The French interface (English words stand in for its bundle here).
      state: { locale: { code: 'fr-FR', dir: 'ltr' }, bundles: { 'fr-FR': enUS } },
      request: answers({ 'GET /cmmo/key/honeycombSystem/privacyPolicy': content('<h2>What we collect</h2>') }),
    });
    const heading = await screen.findByRole('heading', { name: 'What we collect' });
    expect(heading.closest('.md')).toHaveAttribute('lang', 'en-US');
    expect(screen.getByText(/not yet available in your language/)).toBeInTheDocument();
    expect(request).toHaveBeenCalledWith('GET', '/cmmo/key/honeycombSystem/privacyPolicy?locale=fr-FR');
  });

  it('follows a link to a portal page inside the app', async () => {
    renderWithApp(<PrivacyPolicyPage />, {
      path: '/privacy-shield',
      request: answers({
        'GET /cmmo/key/honeycombSystem/privacyPolicy': content('<p>Write to us on the <a href="/contact">Contact us</a> page.</p>'),
      }),
    });
    await userEvent.setup().click(await screen.findByRole('link', { name: 'Contact us' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/contact');
  });

  it('shows the notice version and records the acknowledgement', async () => {
    const { request, store } = renderWithApp(<PrivacyNoticePage />, {
      user: makeUser({ privacyNotice: { hasAcknowledged: false, version: 1 } }),
      request: answers({
        'GET /cmmo/key/honeycombSystem/privacyNotice': content('<p>What we store.</p>'),
        'PUT /user/acknowledge-privacy-notice': { privacyNotice: { hasAcknowledged: true, version: 1 } },
      }),
    });
    expect(await screen.findByText('What we store.')).toBeInTheDocument();
    expect(screen.getByText('Version 1')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'I acknowledge' }));
    expect(await screen.findByText('You have acknowledged this version of the privacy notice.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'I acknowledge' })).not.toBeInTheDocument();
    expect(request).toHaveBeenCalledWith('PUT', '/user/acknowledge-privacy-notice');
    expect(store.getState().user?.privacyNotice.hasAcknowledged).toBe(true);
  });

  it('says so when the notice was already acknowledged', async () => {
    renderWithApp(<PrivacyNoticePage />, {
      user: makeUser({ privacyNotice: { hasAcknowledged: true, version: 1 } }),
      request: answers({ 'GET /cmmo/key/honeycombSystem/privacyNotice': content('<p>Text.</p>') }),
    });
    expect(await screen.findByText('You have acknowledged this version of the privacy notice.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'I acknowledge' })).not.toBeInTheDocument();
  });
});

describe('the contact page', () => {
  const field = (name: string) => screen.getByLabelText(name);

  it('marks every empty required field and sends nothing', async () => {
    const { request } = renderWithApp(<ContactPage />, { user: makeUser() });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send message' }));
    expect(screen.getByText('Please correct the fields marked below.')).toBeInTheDocument();
    expect(field('Topic')).toHaveAccessibleDescription('Please choose a topic.');
    expect(field('Subject')).toHaveAccessibleDescription('Please fill in this field.');
    expect(field('Message')).toHaveAttribute('aria-invalid', 'true');
    expect(field('Topic')).toHaveFocus();
    expect(request).not.toHaveBeenCalled();
  });

  it('refuses a message that is too long and a malformed e-mail or phone, counting characters', async () => {
    renderWithApp(<ContactPage />, { user: makeUser() });
    fireEvent.change(field('Message'), { target: { value: 'x'.repeat(2001) } });
    expect(screen.getByText('2,001 of 2,000 characters')).toBeInTheDocument();
    fireEvent.change(field('Reply e-mail address (optional)'), { target: { value: 'dana@' } });
    fireEvent.change(field('Phone number (optional)'), { target: { value: 'call me' } });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send message' }));
    expect(screen.getByText('This is too long: at most 2000 characters.')).toBeInTheDocument();
    expect(screen.getByText(/Please enter an e-mail address/)).toBeInTheDocument();
    expect(screen.getByText(/Please enter a phone number/)).toBeInTheDocument();
  });

  it('sends the form and shows the success message', async () => {
    const sent: unknown[] = [];
    const { store } = renderWithApp(<ContactPage />, {
      user: makeUser(),
      request: answers({ 'POST /contactUs': (body: unknown) => (sent.push(body), { requestId: 'r1', status: 'new' }) }),
    });
    const user = userEvent.setup();
    await user.selectOptions(field('Topic'), 'order');
    await user.type(field('Subject'), ' Missing parcel ');
    await user.type(field('Message'), 'My headphones have not arrived.');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Thanks for your message. We will get back to you soon.')).toBeInTheDocument();
    expect(sent).toEqual([
      { topic: 'order', subject: 'Missing parcel', message: 'My headphones have not arrived.', replyEmail: '', phone: '' },
    ]);
    expect(store.getState().successes).toMatchObject([{ successType: 'contactUs', message: 'contact.form.successMessage' }]);
    await user.click(screen.getByRole('button', { name: 'Send another message' }));
    expect(field('Subject')).toHaveValue('');
  });

  it('shows the server’s refusal as a contactUs error', async () => {
    const { store } = renderWithApp(<ContactPage />, {
      user: makeUser(),
      request: answers({
        'POST /contactUs': new RequestError({ status: 429, errorCode: 60029, responseMessage: 'contact.error.throttled', message: 'x' }),
      }),
    });
    const user = userEvent.setup();
    await user.selectOptions(field('Topic'), 'points');
    await user.type(field('Subject'), 'Balance');
    await user.type(field('Message'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('You have sent several messages in a short time.'));
    expect(store.getState().errors.map((e) => e.errorType)).toEqual(['contactUs']);
  });
});
