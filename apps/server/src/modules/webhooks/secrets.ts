import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { openSecret, sealSecret, secretKey } from '../sso/secret-box.ts';

/** The Standard Webhooks secret format: `whsec_` then the base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Sealed at rest with the installation's key (the SSO secrets' box, DATA_DIR/sso-secret-key or
 * SSO_SECRET_KEY), the endpoint's id authenticated with it: a sealed secret moved to another row
 * does not open.
 */
export async function sealSigningSecret(dataDir: string, endpointId: string, secret: string): Promise<string> {
  return sealSecret(await secretKey(dataDir), `webhook:${endpointId}`, secret);
}

export async function openSigningSecret(dataDir: string, endpointId: string, sealed: string): Promise<string> {
  return openSecret(await secretKey(dataDir), `webhook:${endpointId}`, sealed);
}

/**
 * The `webhook-signature` header: `v1,<base64>` by each secret that signs now, space-separated
 * (during a rotation's overlap the new and the previous one), as the specification allows.
 */
export function signatureHeader(secrets: readonly string[], msgId: string, at: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(msgId, at, body)).join(' ');
}
