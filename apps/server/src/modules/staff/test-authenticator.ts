import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

type CBORValue = Parameters<typeof isoCBOR.encode>[0];

/**
 * A software passkey for the server's tests: what a platform authenticator and the browser
 * between them hand to the server, built by the rules of WebAuthn Level 2 (authenticator data,
 * client data, "none" attestation in CBOR, ES256 signatures over P-256) with a real key pair.
 * The server verifies it with @simplewebauthn/server exactly as it verifies a browser's; only
 * the browser is left out. (The console's browser tests use Chromium's virtual authenticator.)
 */
export class TestAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly keys: { publicKey: KeyObject; privateKey: KeyObject } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  counter = 0;
  private readonly rpId: string;
  private readonly origin: string;

  constructor(rpId: string, origin: string) {
    this.rpId = rpId;
    this.origin = origin;
  }

  get id(): string {
    return this.credentialId.toString('base64url');
  }

  /** navigator.credentials.create() answered, for creation options (their challenge). */
  register(options: { challenge: string }, overrides: { origin?: string; challenge?: string; rpId?: string } = {}) {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x ?? '', 'base64url')],
      [-3, Buffer.from(jwk.y ?? '', 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      this.rpIdHash(overrides.rpId),
      Buffer.from([0x45]), // user present, user verified, attested credential data
      this.counterBytes(),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      this.credentialId,
      Buffer.from(isoCBOR.encode(cose)),
    ]);
    const fields: Array<[string, CBORValue]> = [
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', new Uint8Array(authData)],
    ];
    const attestationObject = isoCBOR.encode(new Map(fields));
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: this.clientData('webauthn.create', overrides.challenge ?? options.challenge, overrides.origin),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get() answered, for request options (their challenge). */
  authenticate(options: { challenge: string }, overrides: { origin?: string; challenge?: string } = {}) {
    this.counter += 1;
    const authenticatorData = Buffer.concat([this.rpIdHash(), Buffer.from([0x05]), this.counterBytes()]);
    const clientDataJSON = this.clientData('webauthn.get', overrides.challenge ?? options.challenge, overrides.origin);
    const signed = Buffer.concat([authenticatorData, createHash('sha256').update(Buffer.from(clientDataJSON, 'base64url')).digest()]);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON,
        authenticatorData: authenticatorData.toString('base64url'),
        // ES256 in WebAuthn is the DER encoding, Node's default.
        signature: sign('sha256', signed, this.keys.privateKey).toString('base64url'),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private rpIdHash(rpId = this.rpId): Buffer {
    return createHash('sha256').update(rpId).digest();
  }

  private counterBytes(): Buffer {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(this.counter);
    return bytes;
  }

  private clientData(type: string, challenge: string, origin = this.origin): string {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })).toString('base64url');
  }
}
