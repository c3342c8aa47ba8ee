// oidc-provider ships no type declarations; only what the test provider uses (apps/server/test/oidc-provider.ts).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export interface KoaContextWithOIDC {
    oidc: {
      result?: { consent?: { grantId?: string } };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      entities?: { IdTokenHint?: { payload: Record<string, unknown> } };
      client?: { clientId: string };
      provider: {
        Grant: { new (fields: { clientId: string; accountId: string }): Grant; find(id: string): Promise<Grant | undefined> };
      };
    };
  }
  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>>;
  }
  // The configuration is an open-ended object; these tests set a handful of documented keys.
  export type Configuration = Record<string, unknown> & {
    findAccount?: (ctx: KoaContextWithOIDC, id: string) => Promise<Account | undefined>;
    loadExistingGrant?: (ctx: KoaContextWithOIDC) => Promise<Grant | undefined>;
  };
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    /** Ends an interaction with its result (a login with amr and acr, in the staff sign-in's tests) and redirects to resume. */
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: { login: { accountId: string; amr?: string[]; acr?: string } },
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
