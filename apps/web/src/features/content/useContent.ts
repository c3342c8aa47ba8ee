import { useCallback, useEffect, useState } from 'react';
import type { ContentReply } from '@rewards/contract/content';
import { RequestError } from '../../api/client.ts';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { getContent } from './getContent.ts';

export type ContentState =
  { status: 'loading' } | { status: 'ready'; html: string; locale: string } | { status: 'missing' } | { status: 'failed'; error: unknown };

/** What a failed content call means for the page: a 404 is "not published yet", not a failure. */
export function contentFailure(error: unknown): ContentState {
  return error instanceof RequestError && error.status === 404 ? { status: 'missing' } : { status: 'failed', error };
}

export function contentReady(reply: ContentReply): ContentState {
  const first = reply.properties[0];
  return first ? { status: 'ready', html: first.value, locale: first.locale } : { status: 'missing' };
}

/** One content key in the current language, fetched again when the language changes. */
export function useContent(key: string): { state: ContentState; reload: () => void } {
  const { api } = useServices();
  const locale = useAppState((s) => s.locale.code);
  const [attempt, setAttempt] = useState(0);
  // Each answer remembers which request it answers: anything older reads as loading.
  const request = `${key}|${locale}|${attempt}`;
  const [answer, setAnswer] = useState<{ request: string; state: ContentState } | null>(null);

  useEffect(() => {
    let live = true;
    getContent(api, key, locale).then(
      (reply) => live && setAnswer({ request, state: contentReady(reply) }),
      (error: unknown) => {
        // A timed-out session reloads the page; there is nothing to show meanwhile.
        if (live && !(error instanceof RequestError && error.sessionTimeout)) setAnswer({ request, state: contentFailure(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [api, key, locale, request]);

  const state: ContentState = answer?.request === request ? answer.state : { status: 'loading' };
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, reload };
}
