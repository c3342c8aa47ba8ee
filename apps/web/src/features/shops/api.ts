import type { CatalogType, CatalogUrlReply } from '@rewards/contract';
import { apiPaths } from '@rewards/contract/paths';
import type { ApiClient } from '../../api/client.ts';

/** GET user/catalog-url/{type}: a short-lived signed punch-out link to that catalog. */
export const getCatalogUrl = (api: ApiClient, type: CatalogType) => api.request<CatalogUrlReply>('GET', apiPaths.catalogUrl(type));
