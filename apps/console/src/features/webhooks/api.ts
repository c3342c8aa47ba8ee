import {
  consoleWebhooksPaths as paths,
  type CreateWebhookEndpointRequest,
  type DeleteWebhookEndpointRequest,
  type RotateWebhookSecretRequest,
  type UpdateWebhookEndpointRequest,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookEndpointList,
  type WebhookSecretReply,
} from '@rewards/contract/console-webhooks';
import { api } from '../../api/client.ts';

// A client's webhooks (issue 29 §3, decision 084): owners and program managers read and change;
// adding an endpoint and rotating its secret answer the secret (the API client asks for a fresh second factor).
export const getEndpoints = (clientId: string) => api<WebhookEndpointList>('GET', paths.endpoints(clientId));
/** The reply holds the signing secret: the only time it is shown. */
export const createEndpoint = (clientId: string, body: CreateWebhookEndpointRequest) =>
  api<WebhookSecretReply>('POST', paths.endpoints(clientId), { body });
export const updateEndpoint = (clientId: string, endpointId: string, body: UpdateWebhookEndpointRequest) =>
  api<WebhookEndpoint>('PATCH', paths.endpoint(clientId, endpointId), { body });
/** Removes the endpoint and its deliveries (204). */
export const deleteEndpoint = (clientId: string, endpointId: string, body: DeleteWebhookEndpointRequest) =>
  api<void>('DELETE', paths.endpoint(clientId, endpointId), { body });
export const rotateSecret = (clientId: string, endpointId: string, body: RotateWebhookSecretRequest) =>
  api<WebhookSecretReply>('POST', paths.rotateSecret(clientId, endpointId), { body });
export const getDeliveries = (clientId: string, endpointId: string, cursor?: string) =>
  api<WebhookDeliveryList>('GET', paths.deliveries(clientId, endpointId), { query: { cursor } });
export const resendDelivery = (clientId: string, deliveryId: string) =>
  api<WebhookDelivery>('POST', paths.resend(clientId, deliveryId), { body: {} });
