import type { ContentReply } from '@rewards/contract/content';
import { apiPaths } from '@rewards/contract/paths';
import type { ApiClient } from '../../api/client.ts';

/**
 * `GET cmmo/key/honeycombSystem/{key}`. The locale only counts for an anonymous visitor: a
 * signed-in participant gets their saved language (decision 011).
 */
export const getContent = (api: ApiClient, key: string, locale: string) =>
  api.request<ContentReply>('GET', `${apiPaths.contentKey(key)}?locale=${encodeURIComponent(locale)}`);
