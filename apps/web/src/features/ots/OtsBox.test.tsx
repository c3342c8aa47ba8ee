import { describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link } from 'react-router';
import type { OtsRedeemReply } from '@rewards/contract';
import { RequestError } from '../../api/client.ts';
import { makeUser } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import HomePage from '../../app/HomePage.tsx';
import { OtsBox } from './OtsBox.tsx';

const refusal = (status: number, errorCode: number, responseMessage: string) =>
  new RequestError({ status, errorCode, responseMessage, message: responseMessage });

/** A reply the test releases when it wants, to see the busy state in between. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const box = () => screen.getByRole('region', { name: 'Have an on-the-spot code?' });
const input = () => screen.getByRole('textbox', { name: 'On-the-spot code' });
const submit = () => within(box()).getByRole('button', { name: /Redeem/ });

describe('the on-the-spot box on home (spec section 2)', () => {
  it('shows a title, instructions, a labelled input with a placeholder and a submit button', () => {
    renderWithApp(<OtsBox />, { user: makeUser() });
    expect(within(box()).getByRole('heading', { level: 2 })).toHaveTextContent('Have an on-the-spot code?');
    expect(box()).toHaveTextContent('Enter the code from your on-the-spot award to add its Acme Points to your balance.');
    expect(input()).toHaveAttribute('placeholder', 'ACME-XXXX-XXXX');
    expect(submit()).toHaveAttribute('type', 'submit');
  });

  it('is not there without participantFeatures.ots, nor before sign-in', () => {
    const { unmount } = renderWithApp(<OtsBox />, { user: makeUser({ participantFeatures: { ots: false } }) });
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    unmount();
    renderWithApp(<OtsBox />, { user: null });
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('keeps the button disabled while the input is empty or blank', async () => {
    const user = userEvent.setup();
    renderWithApp(<OtsBox />, { user: makeUser() });
    expect(submit()).toBeDisabled();
    await user.type(input(), '   ');
    expect(submit()).toBeDisabled();
    await user.type(input(), 'A');
    expect(submit()).toBeEnabled();
  });

  it('keeps the button disabled for an administrator acting as the participant', async () => {
    const user = userEvent.setup();
    const { request } = renderWithApp(<OtsBox />, { user: makeUser({ adminAsUser: true }) });
    await user.type(input(), 'ACME-7K3F-Q9TX{Enter}');
    expect(submit()).toBeDisabled();
    expect(request).not.toHaveBeenCalled();
  });

  it('redeems: busy spinner, then green done, the success with the points, the input cleared, the balance updated', async () => {
    const user = userEvent.setup();
    const reply = deferred<OtsRedeemReply>();
    const { request, store } = renderWithApp(<HomePage />, {
      user: makeUser({ accountBalance: 12500 }),
      // Only the redeem is answered: home's expiry line asks for its schedule meanwhile.
      request: (_method, path) => (path === '/ots/redeem' ? reply.promise : Promise.reject(new Error('no fake answer'))) as never,
    });
    await user.type(input(), 'acme 7k3f q9tx');
    await user.click(submit());

    expect(request).toHaveBeenCalledWith('POST', '/ots/redeem', { body: { code: 'acme 7k3f q9tx', userName: 'demo' } });
    const busy = within(box()).getByRole('button', { name: 'Redeeming your code' });
    expect(busy).toHaveClass('ots__submit--busy');
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(busy).toBeDisabled();

    await act(async () => reply.resolve({ message: 'ots.success.redeemed', value: 250, accountBalance: 12750 }));
    const done = within(box()).getByRole('button', { name: /Redeemed/ });
    expect(done).toHaveClass('ots__submit--done');
    expect(done).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('Code accepted! 250 Acme Points added to your balance.');
    expect(input()).toHaveValue('');
    expect(store.getState().user?.accountBalance).toBe(12750);
    expect(screen.getByRole('link', { name: '12,750' })).toBeInTheDocument();
    expect(JSON.parse(sessionStorage.getItem('userState') ?? '{}')).toMatchObject({ accountBalance: 12750 });
  });

  it('shows the server’s translated error, which can be dismissed', async () => {
    const user = userEvent.setup();
    renderWithApp(<OtsBox />, { user: makeUser(), request: () => Promise.reject(refusal(409, 40002, 'ots.error.used')) });
    await user.type(input(), 'ACME-Q4RD-9MTE');
    await user.click(submit());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('That code has already been redeemed.');
    expect(input()).toHaveValue('ACME-Q4RD-9MTE');
    expect(submit()).toBeEnabled();
    await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each([
    ['an empty object', {}],
    ['an error whose message is an empty object', { errorCode: 40999, message: {} }],
    [
      'a reply whose message was an empty object',
      new RequestError({ status: 500, errorCode: null, responseMessage: '', message: {} as string }),
    ],
  ])('shows ots.error.unknown for %s (spec section 8)', async (_what, error) => {
    const user = userEvent.setup();
    const { store } = renderWithApp(<OtsBox />, { user: makeUser(), request: () => Promise.reject(error) });
    await user.type(input(), 'ACME-0000');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent('That code could not be redeemed. Please try again.');
    expect(store.getState().errors).toEqual([expect.objectContaining({ errorType: 'ots', responseMessage: 'ots.error.unknown' })]);
  });

  it('dismisses the messages when the input changes and on the next submit', async () => {
    const user = userEvent.setup();
    const answers = [Promise.reject(refusal(404, 40001, 'ots.error.notFound')), Promise.reject(refusal(410, 40003, 'ots.error.expired'))];
    answers.forEach((a) => a.catch(() => {}));
    let call = 0;
    renderWithApp(<OtsBox />, { user: makeUser(), request: () => answers[call++] as never });
    await user.type(input(), 'NOPE');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent("We don't recognise that code.");
    await user.type(input(), 'X');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent('That code has expired.');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('after a success, typing a new code dismisses the success and enables the button again', async () => {
    const user = userEvent.setup();
    renderWithApp(<OtsBox />, {
      user: makeUser(),
      request: () => Promise.resolve({ message: 'ots.success.redeemed', value: 1, accountBalance: 12501 }) as never,
    });
    await user.type(input(), 'ONE');
    await user.click(submit());
    expect(await screen.findByRole('status')).toHaveTextContent('Code accepted! 1 Acme Point added to your balance.');
    await user.type(input(), 'TWO');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(submit()).toBeEnabled();
    expect(submit()).not.toHaveClass('ots__submit--done');
  });

  it('clears the input and the messages on navigation, and the messages on unmount', async () => {
    const user = userEvent.setup();
    const { store, unmount } = renderWithApp(
      <>
        <OtsBox />
        <Link to="/profile">Profile</Link>
      </>,
      { user: makeUser(), request: () => Promise.reject(refusal(404, 40001, 'ots.error.notFound')) },
    );
    await user.type(input(), 'NOPE');
    await user.click(submit());
    await screen.findByRole('alert');
    await user.type(input(), '{Backspace}');
    await user.type(input(), 'E');
    await user.click(submit());
    await screen.findByRole('alert');
    await user.click(screen.getByRole('link', { name: 'Profile' }));
    expect(input()).toHaveValue('');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    store.addError('ots', refusal(404, 40001, 'ots.error.notFound'));
    store.addSuccess({ successType: 'ots', message: 'ots.success.redeemed', values: { value: 5 } });
    unmount();
    expect(store.getState().errors).toEqual([]);
    expect(store.getState().successes).toEqual([]);
  });
});
