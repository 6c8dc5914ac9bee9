// The few parts of oidc-provider 8 the local issuer uses (the package ships no types).
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export type KoaContext = {
    path: string;
    method: string;
    req: IncomingMessage;
    res: ServerResponse;
    type: string;
    body: unknown;
    status: number;
    respond: boolean;
    oidc: {
      result?: { login?: unknown; consent?: { grantId?: string } };
      session: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      client: { clientId: string };
      provider: Provider;
    };
  };

  export class Grant {
    constructor(init: { clientId: string; accountId: string });
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
    static find(id: string): Promise<Grant | undefined>;
  }

  export type Interaction = {
    uid: string;
    params: Record<string, string | undefined>;
    prompt: { name: string };
  };

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    Grant: typeof Grant;
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }

  export class Check {
    constructor(reason: string, description: string, check: (ctx: KoaContext) => boolean);
    static REQUEST_PROMPT: true;
    static NO_NEED_TO_PROMPT: false;
  }

  export const interactionPolicy: {
    base(): { get(name: string): { checks: { add(check: Check): void } } };
    Check: typeof Check;
  };
}
