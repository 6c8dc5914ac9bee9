import { Link } from "@remix-run/react";

const TITLES: Record<number, { title: string; body: string }> = {
  400: { title: "Something is not right", body: "The request could not be understood." },
  401: { title: "Authentication Required", body: "Please sign in to continue." },
  403: { title: "Access Denied", body: "You do not have permission to see this page." },
  404: {
    title: "Page Not Found",
    body: "The page you are looking for does not exist or has moved.",
  },
  503: {
    title: "We'll be right back",
    body: "BidYard is briefly unavailable. Please try again shortly.",
  },
};

export function ErrorPage({ status, message }: { status: number; message?: string }) {
  const known = TITLES[status] ?? {
    title: "Something went wrong",
    body: "An unexpected error happened on our side. Please try again.",
  };
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <p className="text-6xl font-black text-brand-700">{status}</p>
      <h1 className="mt-4 text-2xl font-bold sm:text-3xl">{known.title}</h1>
      <p className="mt-3 text-slate-600">{message && status < 500 ? message : known.body}</p>
      <Link
        to="/"
        className="mt-8 inline-flex items-center rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
      >
        Go to the home page
      </Link>
    </section>
  );
}
