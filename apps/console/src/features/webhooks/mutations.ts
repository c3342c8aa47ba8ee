import type {
  CreateWebhookEndpointRequest,
  RotateWebhookSecretRequest,
  UpdateWebhookEndpointRequest,
  WebhookDelivery,
} from '@rewards/contract/console-webhooks';
import { useWrite } from '../../api/mutations.ts';
import { queryKeys } from '../../api/query-keys.ts';
import { createEndpoint, deleteEndpoint, resendDelivery, rotateSecret, updateEndpoint } from './api.ts';

// A client's webhooks: a change to an endpoint has the endpoint list read again; a resend, the endpoint's deliveries.

const endpointsOf = (clientId: string) => () => [queryKeys.webhooks.endpoints(clientId)];

export const useCreateEndpoint = (clientId: string) =>
  useWrite((body: CreateWebhookEndpointRequest) => createEndpoint(clientId, body), endpointsOf(clientId));
export const useUpdateEndpoint = (clientId: string) =>
  useWrite(
    ({ endpointId, ...body }: UpdateWebhookEndpointRequest & { endpointId: string }) => updateEndpoint(clientId, endpointId, body),
    endpointsOf(clientId),
  );
export const useDeleteEndpoint = (clientId: string) =>
  useWrite(
    ({ endpointId, reason }: { endpointId: string; reason: string }) => deleteEndpoint(clientId, endpointId, { reason }),
    endpointsOf(clientId),
  );
export const useRotateSecret = (clientId: string, endpointId: string) =>
  useWrite((body: RotateWebhookSecretRequest) => rotateSecret(clientId, endpointId, body), endpointsOf(clientId));
/** Sent with the delivery it resends, so the page can say which one. */
export const useResendDelivery = (clientId: string, endpointId: string) =>
  useWrite(
    (delivery: Pick<WebhookDelivery, 'id' | 'eventId'>) => resendDelivery(clientId, delivery.id),
    () => [queryKeys.webhooks.deliveries(clientId, endpointId)],
  );
