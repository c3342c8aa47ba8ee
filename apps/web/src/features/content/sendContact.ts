import type { ContactReply, ContactRequest } from '@rewards/contract/content';
import { apiPaths } from '@rewards/contract/paths';
import type { ApiClient } from '../../api/client.ts';

/** `POST contactUs`: the form, already checked against the same schema the server uses. */
export const sendContact = (api: ApiClient, body: ContactRequest) => api.request<ContactReply>('POST', apiPaths.contactUs, { body });
