import { ErrorPage } from "~/components/error-page";
import { guardLoader } from "~/http/route-guards.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { replicaReads } from "~/http/replica-reads";

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);
export const handle = replicaReads;

async function load() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return <ErrorPage status={404} />;
}

export function ErrorBoundary() {
  return <ErrorPage status={404} />;
}
