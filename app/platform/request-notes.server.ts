// What the app tells the request log about a request (docs/decisions/3002): the signed-in user,
// and a client's mistake that needs no stack. The server (server/request-log.ts) keeps one note per request in flight, on
// globalThis, and sets a header naming it on the request (replacing any value a client sent); the
// Request objects Remix hands to loaders copy the header, so any of them finds the note. Without
// the server (tests, `remix dev` without it) there is no note and nothing is written.
export type RequestNote = { userId?: string; problem?: string };

const NOTES_KEY = Symbol.for("bidyard.requestNotes");
const NOTE_HEADER = "x-bidyard-request";

function noteOf(request: Request): RequestNote | undefined {
  const notes = (globalThis as Record<symbol, unknown>)[NOTES_KEY] as
    Map<string, RequestNote> | undefined;
  const key = request.headers.get(NOTE_HEADER);
  return key && notes ? notes.get(key) : undefined;
}

/** The request's user id, for its log line. */
export function noteUser(request: Request, userId: string) {
  const note = noteOf(request);
  if (note) note.userId = userId;
}

/** A client's mistake (a 4xx Remix raised, a stray ?_data request), for its log line. */
export function noteProblem(request: Request, problem: string) {
  const note = noteOf(request);
  if (note) note.problem = problem.slice(0, 200);
}
