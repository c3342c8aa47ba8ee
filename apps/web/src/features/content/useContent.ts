import type { ContentReply } from '@rewards/contract/content';
import { RequestError, type ApiClient } from '../../api/client.ts';
import { useApiQuery } from '../../api/queries.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { getContent } from './getContent.ts';

export type ContentState =
  { status: 'loading' } | { status: 'ready'; html: string; locale: string } | { status: 'missing' } | { status: 'failed'; error: unknown };

/** A text as published: its HTML and language, or nothing yet. */
type Published = Extract<ContentState, { status: 'ready' | 'missing' }>;

function contentReady(reply: ContentReply): Published {
  const first = reply.properties[0];
  return first ? { status: 'ready', html: first.value, locale: first.locale } : { status: 'missing' };
}

/** One content key in `locale`: a 404 is "not published yet", an answer like any other, not a failure. */
export async function getPublished(api: ApiClient, key: string, locale: string): Promise<Published> {
  try {
    return contentReady(await getContent(api, key, locale));
  } catch (error) {
    if (error instanceof RequestError && error.status === 404) return { status: 'missing' };
    throw error;
  }
}

/** One content key in the current language, asked for again when the language changes. */
export function useContent(key: string): { state: ContentState; reload: () => void } {
  const { api } = useServices();
  const locale = useAppState((s) => s.locale.code);
  const { answer, retry } = useApiQuery({
    queryKey: queryKeys.content.text(key, locale),
    queryFn: () => getPublished(api, key, locale),
  });
  // Both are kept objects: a page may derive from the state in useMemo.
  const state: ContentState = answer.status === 'ready' ? answer.data : answer;
  return { state, reload: retry };
}
