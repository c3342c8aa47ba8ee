import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import type { StatementReply } from '@rewards/contract';
import { renderWithApp } from '../../test/render.tsx';
import { enUS, makeUser } from '../../test/fixtures.ts';
import { useAppState } from '../../state/StoreContext.tsx';
import { useStatement } from './useStatement.ts';

/** The statement's state as text: its first description once ready. */
function Probe() {
  const locale = useAppState((s) => s.locale.code);
  const { state } = useStatement('demo', locale);
  return <output>{state.status === 'ready' ? (state.statement.accountHistoryList[0]?.description ?? '') : state.status}</output>;
}

const statement = (description: string): StatementReply => ({
  accountNumber: '1000001',
  accountHistoryList: [{ date: '2026-03-01T12:00:00.000Z', description, amountOrAward: 100 }],
});

describe('the statement, kept by TanStack Query', () => {
  it('is asked for again in a new language, and the old language never shows as current', async () => {
    let answerFrench: (reply: StatementReply) => void = () => {};
    const { request, store } = renderWithApp(<Probe />, {
      user: makeUser(),
      request: ((_method: string, path: string) =>
        path.endsWith('locale=fr-FR')
          ? new Promise<StatementReply>((resolve) => (answerFrench = resolve))
          : Promise.resolve(statement('Welcome bonus'))) as never,
    });
    expect(await screen.findByText('Welcome bonus')).toBeInTheDocument();

    act(() => store.setState({ locale: { code: 'fr-FR', dir: 'ltr' }, bundles: { 'en-US': enUS, 'fr-FR': enUS } }));
    expect(request).toHaveBeenLastCalledWith('GET', '/user/account/statement?username=demo&locale=fr-FR');
    expect(screen.getByRole('status')).toHaveTextContent('loading');
    act(() => answerFrench(statement('Prime de bienvenue')));
    expect(await screen.findByText('Prime de bienvenue')).toBeInTheDocument();
  });
});
