import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RequestError } from '../../api/client.ts';
import { enUS, makeUser } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import ProfilePage from './ProfilePage.tsx';

const OLD = 'Rewards-2026!';
const NEW = 'Garden-Path-42';

const field = (name: string) => screen.getByLabelText(name, { selector: 'input' });

async function fillPassword(current: string, next: string, confirm: string) {
  const user = userEvent.setup();
  if (current) await user.type(field('Current password'), current);
  if (next) await user.type(field('New password'), next);
  if (confirm) await user.type(field('Confirm new password'), confirm);
  await user.click(screen.getByRole('button', { name: 'Change password' }));
}

describe('the profile modal', () => {
  it("shows the participant's details, read-only", () => {
    renderWithApp(<ProfilePage />, { user: makeUser() });
    expect(screen.getByRole('heading', { level: 1, name: 'Your profile' })).toBeInTheDocument();
    const details = screen.getByRole('region', { name: 'Your details' });
    expect(details).toHaveTextContent('NameDana Demo');
    expect(details).toHaveTextContent('Usernamedemo');
    expect(details).toHaveTextContent('Account number1000001');
    expect(details.querySelector('input')).toBeNull();
  });

  it('ties the rules panel to the new password and ticks it while typing', async () => {
    renderWithApp(<ProfilePage />, { user: makeUser() });
    expect(field('New password')).toHaveAccessibleDescription(/Your new password needs:.*At least 8 characters: not met/);
    await userEvent.setup().type(field('New password'), 'abc1');
    expect(field('New password')).toHaveAccessibleDescription(/A lowercase letter: met.*A number: met.*A symbol, such as ! or #: not met/);
  });

  it('says the confirmation does not match, without calling the server', async () => {
    const { request } = renderWithApp(<ProfilePage />, { user: makeUser() });
    await fillPassword(OLD, NEW, 'Garden-Path-43');
    expect(field('Confirm new password')).toHaveAccessibleDescription('The two passwords do not match.');
    expect(field('Confirm new password')).toHaveAttribute('aria-invalid', 'true');
    expect(field('Confirm new password')).toHaveFocus();
    expect(request).not.toHaveBeenCalled();
  });

  it('asks for every field and a new password that meets the rules and differs, without calling the server', async () => {
    const { request } = renderWithApp(<ProfilePage />, { user: makeUser() });
    await fillPassword('', 'short', 'short');
    expect(screen.getByText('Enter your current password.')).toBeInTheDocument();
    expect(screen.getByText('Your password does not meet all the password rules yet.')).toBeInTheDocument();
    expect(field('Current password')).toHaveFocus();
    await userEvent.setup().clear(field('New password'));
    await fillPassword(OLD, OLD, OLD);
    expect(screen.getByText('The new password must be different from your current one.')).toBeInTheDocument();
    expect(request).not.toHaveBeenCalled();
  });

  it('changes the password, clears the fields and says so', async () => {
    const { request } = renderWithApp(<ProfilePage />, {
      user: makeUser(),
      request: (() => Promise.resolve({ otherSessionsEnded: 1 })) as never,
    });
    await fillPassword(OLD, NEW, NEW);
    expect(await screen.findByText('Your password has been changed.')).toBeInTheDocument();
    expect(request).toHaveBeenCalledWith('PUT', '/user/password', { body: { oldPassword: OLD, newPassword: NEW } });
    for (const name of ['Current password', 'New password', 'Confirm new password']) expect(field(name)).toHaveValue('');
  });

  it("shows the server's refusal in the modal and clears the wrong current password", async () => {
    renderWithApp(<ProfilePage />, {
      user: makeUser(),
      request: (() =>
        Promise.reject(
          new RequestError({
            status: 400,
            errorCode: 30002,
            responseMessage: 'profile.error.wrongPassword',
            message: 'The current password is not correct',
          }),
        )) as never,
    });
    await fillPassword('Not-It-2026!', NEW, NEW);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your current password is not correct. Please try again.');
    expect(field('Current password')).toHaveValue('');
    expect(field('New password')).toHaveValue(NEW);
  });

  it('does not let an administrator acting as the participant change the password', () => {
    renderWithApp(<ProfilePage />, { user: makeUser({ adminAsUser: true }) });
    expect(screen.getByText(/Only the participant can change their password/)).toBeInTheDocument();
    expect(field('Current password')).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Change password' })).toBeDisabled();
    // The language: this screen's only (the server refuses to change the participant's).
    expect(screen.getByText(/the language changes on this screen only/)).toBeInTheDocument();
  });

  it('saves the language through the shared switch and says so', async () => {
    const arabic = { ...makeUser(), locale: { code: 'ar', dir: 'rtl' as const } };
    const { request, store } = renderWithApp(<ProfilePage />, {
      user: makeUser(),
      request: ((method: string, path: string) => {
        if (path === '/viewConfig/bundle/ar') return Promise.resolve({ bundleList: { ar: { locale: 'ar', properties: enUS } } });
        if (method === 'POST' && path === '/user/locale') return Promise.resolve(arabic);
        return Promise.reject(new Error(`unexpected ${method} ${path}`));
      }) as never,
    });
    const user = userEvent.setup();
    expect(screen.getByRole('group', { name: 'Choose the language of the site' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'English' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'العربية' }));
    await user.click(screen.getByRole('button', { name: 'Save language' }));
    await waitFor(() => expect(store.getState().locale).toEqual({ code: 'ar', dir: 'rtl' }));
    expect(await screen.findByText('Your language has been saved.')).toBeInTheDocument();
    expect(request).toHaveBeenCalledWith('POST', '/user/locale', { body: { locale: { code: 'ar' } } });
  });

  it('shows a refused language change in the modal, without a success message', async () => {
    renderWithApp(<ProfilePage />, {
      user: makeUser(),
      request: ((method: string, path: string) => {
        if (path === '/viewConfig/bundle/fr-FR') return Promise.resolve({ bundleList: { 'fr-FR': { locale: 'fr-FR', properties: enUS } } });
        return Promise.reject(
          new RequestError({ status: 400, errorCode: 30001, responseMessage: 'error.unsupportedLocale', message: 'no' }),
        );
      }) as never,
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Français' }));
    await user.click(screen.getByRole('button', { name: 'Save language' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That language is not available.');
    expect(screen.queryByText('Your language has been saved.')).not.toBeInTheDocument();
  });
});
