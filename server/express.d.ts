// What the server's own middleware adds to Express's request (types only).
declare global {
  namespace Express {
    interface Request {
      /** The form or JSON body, read and capped by ./body-bounds.ts. */
      boundedBody?: Buffer;
      /** Fly's request id behind Fly, else the server's own (./request-log.ts). */
      requestId?: string;
    }
  }
}

export {};
