// Calls route modules directly, as Remix would.
export type Handler = (args: {
  request: Request;
  params: Record<string, string>;
  context: object;
}) => unknown;

/** The arguments Remix gives a loader or action: the request, the route's params, no context. */
export const args = (request: Request, params: Record<string, string> = {}) => ({
  request,
  params,
  context: {},
});

/** Calls a loader or action the way Remix does; a thrown Response is an answer too. */
export async function call(
  handler: Handler,
  request: Request,
  params: Record<string, string> = {},
) {
  try {
    const result = await handler({ request, params, context: {} });
    if (result instanceof Response) return result;
    // Remix's data(value, init)
    const withInit = result as { type?: string; data?: unknown; init?: ResponseInit | null };
    if (withInit?.type === "DataWithResponseInit") {
      return Response.json(withInit.data, withInit.init ?? undefined);
    }
    return Response.json(result);
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}
