import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp } from '../test/render.tsx';
import { makeUser } from '../test/fixtures.ts';
import { RequestError } from './client.ts';
import { createQueryClient, useApiMutation, useApiQuery } from './queries.ts';
import { queryKeys } from './query-keys.ts';

const refusal = (status: number) => new RequestError({ status, errorCode: 60004, responseMessage: 'error.generic', message: 'x' });
const noAnswer = new RequestError({ status: 0, errorCode: null, responseMessage: 'error.network', message: 'Failed to fetch' });
const timedOut = new RequestError({ status: 401, errorCode: null, responseMessage: 'error.session.expired', message: 'x' }, true);

/** Shows a query's answer as text, with a button to ask again. */
function Probe({ name, load }: { name: string; load: () => Promise<string> }) {
  const { answer, retry } = useApiQuery({ queryKey: ['probe', name], queryFn: load });
  return (
    <section aria-label={name}>
      <output>{answer.status === 'ready' ? answer.data : answer.status}</output>
      <button onClick={retry}>again</button>
    </section>
  );
}

const shown = (name: string) => within(screen.getByRole('region', { name })).getByRole('status');

describe('server data through TanStack Query (decision 059)', () => {
  it('tries a call that got no answer once more, and never one that got an answer', () => {
    const retry = createQueryClient().getDefaultOptions().queries?.retry;
    if (typeof retry !== 'function') throw new Error('the retry rule is a function');
    expect(retry(0, noAnswer)).toBe(true);
    expect(retry(1, noAnswer)).toBe(false);
    for (const status of [400, 401, 403, 404, 429, 500, 503]) expect(retry(0, refusal(status)), String(status)).toBe(false);
    expect(retry(0, timedOut)).toBe(false);
  });

  it('shows a refusal after one call, and asks again when told to', async () => {
    const load = vi.fn<() => Promise<string>>().mockRejectedValueOnce(refusal(403)).mockResolvedValueOnce('the text');
    renderWithApp(<Probe name="page" load={load} />, { user: makeUser() });
    expect(await screen.findByText('failed')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
    await userEvent.setup().click(screen.getByRole('button', { name: 'again' }));
    expect(await screen.findByText('the text')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('shows no failure for a session that timed out: the page is reloading', async () => {
    renderWithApp(
      <>
        <Probe name="timed out" load={() => Promise.reject(timedOut)} />
        <Probe name="refused" load={() => Promise.reject(refusal(403))} />
      </>,
      { user: makeUser() },
    );
    // Both calls fail at once; the refused one shows it, the timed-out one keeps loading.
    expect(await within(screen.getByRole('region', { name: 'refused' })).findByText('failed')).toBeInTheDocument();
    expect(shown('timed out')).toHaveTextContent('loading');
  });

  it("keeps answers per session: after a sign-in as someone else, nothing of the previous one's shows", async () => {
    let signedIn = 'dana';
    const { store } = renderWithApp(<Probe name="page" load={() => Promise.resolve(`for ${signedIn}`)} />, {
      user: makeUser({ sessionId: 'session-1', userName: 'dana' }),
    });
    expect(await screen.findByText('for dana')).toBeInTheDocument();
    // A sign-out and sign-in do not reload the page.
    signedIn = 'bea';
    act(() => store.setState({ user: makeUser({ sessionId: 'session-2', userName: 'bea' }) }));
    expect(shown('page')).toHaveTextContent('loading');
    expect(await screen.findByText('for bea')).toBeInTheDocument();
  });
});

/** A write whose button says when it is busy, and which makes the statement stale. */
function Writer({ send, onSuccess, onError }: { send: () => Promise<string>; onSuccess?: () => void; onError?: (error: unknown) => void }) {
  const write = useApiMutation({ mutationFn: send, invalidates: [queryKeys.statement.all()], onSuccess, onError });
  return (
    <button onClick={() => write.mutate()} aria-busy={write.isPending}>
      write
    </button>
  );
}

function Statement({ load }: { load: () => Promise<string> }) {
  const { answer } = useApiQuery({ queryKey: queryKeys.statement.of('dana', 'en-US'), queryFn: load });
  return <output aria-label="statement">{answer.status === 'ready' ? answer.data : answer.status}</output>;
}

describe('server writes through TanStack Query (decision 090)', () => {
  it('asks again for the reads a write declares stale, once it succeeded', async () => {
    let version = 1;
    const load = vi.fn(() => Promise.resolve(`statement ${version}`));
    const onSuccess = vi.fn();
    renderWithApp(
      <>
        <Statement load={load} />
        <Writer send={() => Promise.resolve('done').finally(() => (version = 2))} onSuccess={onSuccess} />
      </>,
      { user: makeUser() },
    );
    expect(await screen.findByText('statement 1')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'write' }));
    expect(await screen.findByText('statement 2')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
    expect(onSuccess).toHaveBeenCalledTimes(1);
  });

  it('is busy while sent, reports a refusal, and says nothing of a session that timed out', async () => {
    let refuse: (error: unknown) => void = () => {};
    const onError = vi.fn();
    renderWithApp(<Writer send={() => new Promise((_resolve, reject) => (refuse = reject))} onError={onError} />, { user: makeUser() });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'write' }));
    expect(screen.getByRole('button', { name: 'write' })).toHaveAttribute('aria-busy', 'true');
    act(() => refuse(timedOut));
    await waitFor(() => expect(screen.getByRole('button', { name: 'write' })).toHaveAttribute('aria-busy', 'false'));
    expect(onError).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'write' }));
    const refused = refusal(409);
    act(() => refuse(refused));
    await waitFor(() => expect(onError).toHaveBeenCalledExactlyOnceWith(refused, undefined));
  });

  it('keeps its own callbacks for a page that has gone', async () => {
    let answer: (value: string) => void = () => {};
    const onSuccess = vi.fn();
    const { unmount } = renderWithApp(<Writer send={() => new Promise((resolve) => (answer = resolve))} onSuccess={onSuccess} />, {
      user: makeUser(),
    });
    await userEvent.setup().click(screen.getByRole('button', { name: 'write' }));
    unmount();
    answer('done');
    // The store's message outlives the page (spec section 8).
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
  });
});
