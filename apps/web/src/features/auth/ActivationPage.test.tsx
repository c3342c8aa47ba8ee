import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiClient } from '../../api/client.ts';
import { RequestError } from '../../api/client.ts';
import { renderWithApp } from '../../test/render.tsx';
import { enUS, makeClient, makeUser } from '../../test/fixtures.ts';
import { ACTIVATION_FIELDS } from '@rewards/contract/activation-fields';
import ActivationPage, { fieldLabelKey, fieldNameInWords } from './ActivationPage.tsx';

// The shipped bundles, core and every area, per locale: what the portal sends to a browser.
const files = import.meta.glob<Record<string, string>>('../../../../../packages/translations/bundles/*.json', {
  eager: true,
  import: 'default',
});
const bundleOf = (locale: string) =>
  Object.assign(
    {},
    ...Object.entries(files)
      .filter(([path]) => path.endsWith(`/${locale}.json`) || path.endsWith(`.${locale}.json`))
      .map(([, texts]) => texts),
  ) as Record<string, string>;

const GOOD = 'Garden-Path-42';
const client = (activationFields: string[], privacyNoticeVersion = 1) =>
  makeClient({ privacyNoticeVersion, clientBranding: { ...makeClient().clientBranding, activationFields } });

function open(options: { fields?: string[]; privacy?: number; request?: ApiClient['request'] } = {}) {
  return renderWithApp(<ActivationPage />, {
    path: '/activation',
    client: client(options.fields ?? ['accountNumber', 'lastName'], options.privacy ?? 1),
    ...(options.request ? { request: options.request } : {}),
  });
}

async function fillAll(user: ReturnType<typeof userEvent.setup>, password = GOOD, confirm = password) {
  await user.type(screen.getByLabelText('Account number'), '1000004');
  await user.type(screen.getByLabelText('Last name'), 'Pending');
  await user.type(screen.getByLabelText('New password'), password);
  await user.type(screen.getByLabelText('Confirm new password'), confirm);
}

const submit = (user: ReturnType<typeof userEvent.setup>) => user.click(screen.getByRole('button', { name: 'Activate and sign in' }));

describe('the activation page', () => {
  it("asks for the client's activation fields, a user id of one's own choice and a new password", () => {
    open({ fields: [...ACTIVATION_FIELDS, 'employeeId'] });
    expect(screen.getByRole('heading', { level: 1, name: 'Activate your account' })).toBeInTheDocument();
    for (const label of ['Account number', 'User ID', 'Last name', 'First name', 'Email address']) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    // A name the operator command refuses (set by other means) is still asked, in words.
    expect(screen.getByLabelText('Employee id')).toHaveAttribute('autocomplete', 'off');
    // Each known field with the keyboard and autofill it needs.
    expect(screen.getByLabelText('Email address')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Email address')).toHaveAttribute('autocomplete', 'email');
    expect(screen.getByLabelText('User ID')).toHaveAttribute('autocomplete', 'username');
    expect(screen.getByLabelText('User ID')).toHaveAttribute('autocapitalize', 'none');
    expect(screen.getByLabelText('Last name')).toHaveAttribute('autocomplete', 'family-name');
    expect(screen.getByLabelText('First name')).toHaveAttribute('autocomplete', 'given-name');
    // The date of birth is typed as day, month and year in the page's language (decision 037).
    const birth = within(screen.getByRole('group', { name: 'Date of birth' }));
    expect(birth.getByLabelText('Day')).toHaveAttribute('autocomplete', 'bday-day');
    expect(birth.getByLabelText('Month')).toHaveAttribute('autocomplete', 'bday-month');
    expect(birth.getByLabelText('Year')).toHaveAttribute('autocomplete', 'bday-year');
    expect(screen.getByLabelText('Choose a user ID (optional)')).toHaveValue('');
    expect(screen.getByText('Your new password needs:')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Read the privacy policy' })).toHaveAttribute('href', '/privacy-shield');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });

  it('shows only the fields the client asks for, and no privacy checkbox without a notice', () => {
    open({ fields: ['emailAddress'], privacy: 0 });
    expect(screen.getByLabelText('Email address')).toBeInTheDocument();
    expect(screen.queryByLabelText('Account number')).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('checks every field before calling the server', async () => {
    const { request } = open();
    const user = userEvent.setup();
    await submit(user);
    expect(screen.getAllByText('Fill in this field.')).toHaveLength(2);
    expect(screen.getByText('Enter a new password.')).toBeInTheDocument();
    expect(screen.getByText('Accept the privacy policy to activate your account.')).toBeInTheDocument();
    expect(screen.getByLabelText('Account number')).toHaveFocus();
    expect(screen.getByLabelText('Account number')).toHaveAttribute('aria-invalid', 'true');
    expect(request).not.toHaveBeenCalled();
  });

  it('refuses a password that breaks the rules or a confirmation that differs', async () => {
    const { request } = open();
    const user = userEvent.setup();
    await fillAll(user, 'short', 'shorter');
    await user.click(screen.getByRole('checkbox'));
    await submit(user);
    expect(screen.getByText('Your password does not meet all the password rules yet.')).toBeInTheDocument();
    expect(screen.getByText('The two passwords do not match.')).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveFocus();
    expect(request).not.toHaveBeenCalled();
  });

  it('will not go on until the privacy policy is accepted', async () => {
    const { request } = open();
    const user = userEvent.setup();
    await fillAll(user);
    await submit(user);
    expect(screen.getByText('Accept the privacy policy to activate your account.')).toBeInTheDocument();
    expect(screen.getByRole('checkbox')).toHaveFocus();
    expect(request).not.toHaveBeenCalled();
  });

  it('activates, and the participant is signed in like after a login', async () => {
    const pending = makeUser({ userName: 'pat', firstName: 'Pat', lastName: 'Pending', sessionId: 'session-9' });
    const { store, request } = open({ request: () => Promise.resolve(pending) as never });
    const user = userEvent.setup();
    await fillAll(user);
    await user.type(screen.getByLabelText('Choose a user ID (optional)'), ' pat2026 ');
    await user.click(screen.getByRole('checkbox'));
    await submit(user);
    await waitFor(() => expect(store.getState().user).toEqual(pending));
    expect(request).toHaveBeenCalledWith('POST', '/activate', {
      body: {
        characteristics: { accountNumber: '1000004', lastName: 'Pending' },
        password: GOOD,
        username: 'pat2026',
        acceptedPrivacyNoticeVersion: 1,
      },
      sessionId: null,
    });
    expect(store.getState().user).toEqual(pending);
    expect(JSON.parse(sessionStorage.getItem('userState') ?? 'null')).toMatchObject({ sessionId: 'session-9' });
  });

  it("fetches the participant's language when it differs, as login does", async () => {
    const french = makeUser({ locale: { code: 'fr-FR', dir: 'ltr' } });
    const request = ((method: string) =>
      Promise.resolve(
        method === 'POST'
          ? french
          : { bundleList: { 'fr-FR': { locale: 'fr-FR', properties: { ...enUS, 'activation.heading': 'Activez votre compte' } } } },
      )) as ApiClient['request'];
    const { store, request: calls } = open({ fields: ['accountNumber', 'lastName'], privacy: 0, request });
    const user = userEvent.setup();
    await fillAll(user);
    await submit(user);
    expect(await screen.findByRole('heading', { level: 1, name: 'Activez votre compte' })).toBeInTheDocument();
    expect(calls).toHaveBeenCalledWith('GET', '/viewConfig/bundle/fr-FR');
    expect(store.getState().locale.code).toBe('fr-FR');
  });

  it("shows the server's error and clears the passwords", async () => {
    const { store } = open({
      request: () =>
        Promise.reject(new RequestError({ status: 400, errorCode: 80001, responseMessage: 'error.validation', message: 'no match' })),
    });
    const user = userEvent.setup();
    await fillAll(user);
    await user.click(screen.getByRole('checkbox'));
    await submit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Some of the information entered is not valid.');
    expect(screen.getByLabelText('New password')).toHaveValue('');
    expect(screen.getByLabelText('Account number')).toHaveValue('1000004');
    expect(store.getState().user).toBeNull();
    expect(store.getState().errors.map((e) => e.errorType)).toEqual(['activation']);
  });

  it('asks for the date of birth in full and sends it as an ISO date', async () => {
    const { request } = open({ fields: ['accountNumber', 'dateOfBirth'], privacy: 0, request: () => Promise.resolve(makeUser()) as never });
    const user = userEvent.setup();
    const birth = within(screen.getByRole('group', { name: 'Date of birth' }));
    await user.type(screen.getByLabelText('Account number'), '1000004');
    await user.type(screen.getByLabelText('New password'), GOOD);
    await user.type(screen.getByLabelText('Confirm new password'), GOOD);
    await submit(user);
    expect(screen.getByText('Fill in this field.')).toBeInTheDocument();
    expect(birth.getByLabelText('Month')).toHaveFocus();

    await user.selectOptions(birth.getByLabelText('Month'), 'April');
    await user.type(birth.getByLabelText('Day'), '31');
    await user.type(birth.getByLabelText('Year'), '1984');
    expect(screen.getByText('Enter a day from 1 to 30.')).toBeInTheDocument();
    await submit(user);
    expect(screen.getByText('Enter a day from 1 to 30.')).toBeInTheDocument();
    expect(birth.getByLabelText('Month')).toHaveFocus();
    expect(request).not.toHaveBeenCalled();

    await user.clear(birth.getByLabelText('Day'));
    await user.type(birth.getByLabelText('Day'), '30');
    await submit(user);
    await waitFor(() =>
      expect(request).toHaveBeenCalledWith('POST', '/activate', {
        body: { characteristics: { accountNumber: '1000004', dateOfBirth: '1984-04-30' }, password: GOOD },
        sessionId: null,
      }),
    );
  });

  it('has a label for every field the operator command accepts, in each language of the portal', () => {
    for (const locale of ['en-US', 'fr-FR', 'ar']) {
      const bundle = bundleOf(locale);
      for (const name of ACTIVATION_FIELDS)
        expect([locale, name, bundle[fieldLabelKey(name)]?.trim()]).toEqual([locale, name, expect.any(String)]);
    }
    const arabic = bundleOf('ar');
    for (const name of ACTIVATION_FIELDS) expect(arabic[fieldLabelKey(name)]).toMatch(/^[\u0600-\u06FF\s]+$/);
  });

  it('asks for every field in Arabic, with no English word on the page', () => {
    renderWithApp(<ActivationPage />, {
      path: '/activation',
      client: client([...ACTIVATION_FIELDS], 0),
      state: { locale: { code: 'ar', dir: 'rtl' }, bundles: { 'en-US': enUS, ar: bundleOf('ar') } },
    });
    expect(screen.getByLabelText('البريد الإلكتروني')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('معرّف المستخدم')).toHaveAttribute('autocomplete', 'username');
    expect(screen.getByRole('group', { name: 'تاريخ الميلاد' })).toBeInTheDocument();
    const labels = [...document.querySelectorAll('label, legend')].map((element) => element.textContent ?? '');
    expect(labels.filter((text) => /[A-Za-z]/.test(text))).toEqual([]);
  });

  it('puts an unknown field name into words', () => {
    expect(fieldNameInWords('employeeId')).toBe('Employee id');
    expect(fieldNameInWords('store_code')).toBe('Store code');
  });
});
