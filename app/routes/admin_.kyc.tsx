import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { KycReviewList } from "~/components/kyc/review-list";
import { listPendingDocuments } from "~/services/kyc/kyc.server";
import { requireAdmin } from "~/services/accounts/session.server";
import { guardLoader } from "~/http/route-guards.server";

export const meta: MetaFunction = () => [{ title: "KYC Review · Admin · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return { documents: await listPendingDocuments() };
}

export default function AdminKycReview() {
  const { documents } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-5xl px-3 py-8 sm:px-6">
      <h1 className="text-2xl font-bold">KYC Review</h1>
      <p className="mt-1 text-slate-600">
        {documents.length} pending {documents.length === 1 ? "document" : "documents"}
      </p>
      <KycReviewList documents={documents} />
    </div>
  );
}
