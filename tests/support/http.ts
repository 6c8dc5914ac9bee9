// What a loader or action answered when a test calls it directly: Remix lets them return a value
// (a Response, or data(value, init)) or throw a Response, and both are answers.

/** The value a loader or action returned, or the Response it threw (anything else thrown fails). */
export async function answerOf<T = unknown>(work: Promise<unknown>): Promise<T> {
  try {
    return (await work) as T;
  } catch (error) {
    if (error instanceof Response) return error as T;
    throw error;
  }
}

/** The Response a loader or action returned or threw; any other answer fails the test. */
export async function responseOf(work: Promise<unknown>): Promise<Response> {
  const answer = await answerOf(work);
  if (answer instanceof Response) return answer;
  throw new Error("expected a Response");
}

/** The Response a loader or action threw; returning instead fails the test. */
export async function thrownResponse(work: Promise<unknown>): Promise<Response> {
  try {
    await work;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected a Response to be thrown");
}

/** The status of an answer: a Response's, data(value, init)'s init.status, or 200. */
export function statusOf(result: unknown): number {
  if (result instanceof Response) return result.status;
  return (result as { init?: ResponseInit } | null)?.init?.status ?? 200;
}
