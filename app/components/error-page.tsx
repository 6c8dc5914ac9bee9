import { Link, isRouteErrorResponse, useLocation, useRouteError } from "@remix-run/react";
import { useEffect } from "react";
import { LOGIN_REDIRECT_DELAY_MS, readSignInRequired } from "~/services/accounts/sign-in";
import { errorMessage, retryAfterOf, statusWords, waitInWords } from "~/utils/error-words";
import { useToast } from "./toaster";

/**
 * An error page in words: the status, a title, and the error's own sentence (a 4xx's message)
 * or the status's standing text; a 429 that says how long to wait says it too
 * (docs/decisions/3521).
 */
export function ErrorPage({
  status,
  message,
  retryAfter,
}: {
  status: number;
  message?: string;
  retryAfter?: number;
}) {
  const location = useLocation();
  if (status === 401) return <SignInRequiredPage />;
  const known = statusWords(status);
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <p className="text-6xl font-black text-brand-700">{status}</p>
      <h1 className="mt-4 text-2xl font-bold sm:text-3xl">{known.title}</h1>
      <p className="mt-3 text-slate-600">
        {status === 429 && retryAfter
          ? `You did this too many times in a short while. You can try again in ${waitInWords(retryAfter)}.`
          : message && status < 500
            ? message
            : known.body}
      </p>
      {status === 503 ? (
        // the whole site is unavailable: the home page would answer this same page; trying this
        // address again is the one thing that helps
        <a
          href={`${location.pathname}${location.search}`}
          className="mt-8 inline-flex items-center rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
        >
          Try again
        </a>
      ) : (
        <Link
          to="/"
          className="mt-8 inline-flex items-center rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
        >
          Go to the home page
        </Link>
      )}
    </section>
  );
}

/**
 * A 401 reaches a page only when the app's scripts asked (the server redirects documents): say so
 * with a toast, then go to sign in after 500 ms (docs/decisions/0104). The link is there for
 * whoever is faster.
 */
function SignInRequiredPage() {
  const error = useRouteError();
  const { signIn, toast } = readSignInRequired(isRouteErrorResponse(error) ? error.data : null);
  const showToast = useToast();
  const { title, description } = toast;
  useEffect(() => {
    showToast({ title, description, type: "error" });
    const timer = window.setTimeout(() => window.location.assign(signIn), LOGIN_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [showToast, signIn, title, description]);
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <p className="text-6xl font-black text-brand-700">401</p>
      <h1 className="mt-4 text-2xl font-bold sm:text-3xl">{statusWords(401).title}</h1>
      <p className="mt-3 text-slate-600">{statusWords(401).body}</p>
      <a
        href={signIn}
        className="mt-8 inline-flex items-center rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
      >
        Sign In
      </a>
    </section>
  );
}

// The error boundary of a route whose errors are plain answers (a thrown 4xx with its message
// as text or JSON): the status picks the page, the message says what went wrong.
export function RouteErrorBoundary() {
  return <ErrorPage {...errorPageProps(useRouteError())} />;
}

/** What an ErrorPage shows for a caught error: a thrown answer's status and words, else a 500. */
export function errorPageProps(error: unknown) {
  if (!isRouteErrorResponse(error)) return { status: 500 };
  return {
    status: error.status,
    message: errorMessage(error.data),
    retryAfter: retryAfterOf(error.data),
  };
}
