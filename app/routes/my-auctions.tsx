import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { formatRemaining } from "~/components/auctions/countdown";
import { requireUser } from "~/services/accounts/session.server";
import { myAuctions, type MyLot } from "~/services/purchases/my-auctions.server";
import { nextStep, PURCHASE_STATUS_LABELS } from "~/services/purchases/status";
import { formatUsd } from "~/utils/money";
import { LocalTime } from "~/components/local-time";
import { guardLoader } from "~/http/route-guards.server";

export const meta: MetaFunction = () => [{ title: "My auctions · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return data(await myAuctions(user.id), { headers: { "Cache-Control": "no-store" } });
}

const SECTIONS = [
  { id: "watching", label: "Watching" },
  { id: "bidding", label: "Bidding" },
  { id: "won", label: "Won" },
  { id: "lost", label: "Lost" },
] as const;

function Section({
  id,
  label,
  count,
  children,
}: {
  id: string;
  label: string;
  count: number;
  children: React.ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="mt-8 scroll-mt-20">
      <h2 id={`${id}-heading`} className="text-xl font-bold">
        {label} <span className="text-base font-normal text-slate-500">({count})</span>
      </h2>
      {count === 0 ? <p className="mt-2 text-slate-600">Nothing here yet.</p> : children}
    </section>
  );
}

function LotLink({ lot }: { lot: MyLot }) {
  return (
    <Link to={`/auctions/${lot.id}`} className="font-semibold text-brand-700 underline">
      {lot.title}
    </Link>
  );
}

const card = "rounded-lg border border-slate-200 bg-white p-3 shadow-sm";

export default function MyAuctionsPage() {
  const page = useLoaderData<typeof loader>();
  const at = new Date(page.now).getTime();
  const counts = {
    watching: page.watching.length,
    bidding: page.bidding.length,
    won: page.won.length,
    lost: page.lost.length,
  };
  return (
    <div className="mx-auto max-w-4xl px-3 py-8 sm:px-6">
      <h1 className="text-2xl font-black tracking-tight sm:text-3xl">My auctions</h1>
      <nav aria-label="My auctions sections" className="mt-4">
        <ul className="flex flex-wrap gap-2">
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <a
                href={`#${s.id}`}
                className="inline-block rounded-full border border-slate-300 bg-white px-3 py-1 text-sm font-semibold hover:bg-slate-50"
              >
                {s.label} ({counts[s.id]})
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <Section id="watching" label="Watching" count={counts.watching}>
        <ul className="mt-3 grid gap-2">
          {page.watching.map((lot) => (
            <li key={lot.id} className={card}>
              <LotLink lot={lot} /> · lot {lot.lotNumber}
              <p className="text-sm text-slate-600">
                Current bid {formatUsd(lot.currentBid)} · ends in{" "}
                {formatRemaining(new Date(lot.endsAt).getTime() - at)}
              </p>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="bidding" label="Bidding" count={counts.bidding}>
        <ul className="mt-3 grid gap-2">
          {page.bidding.map((lot) => (
            <li key={lot.id} className={card}>
              <LotLink lot={lot} />{" "}
              <span
                className={`ml-1 rounded px-1.5 py-0.5 text-xs font-bold ${lot.leading ? "bg-green-100 text-green-800" : "bg-red-100 text-red-800"}`}
              >
                {lot.leading ? "Leading" : "Outbid"}
              </span>
              <p className="text-sm text-slate-600">
                Current bid {formatUsd(lot.currentBid)} · my maximum {formatUsd(lot.myMax ?? "0")} ·
                {lot.open
                  ? ` time left ${formatRemaining(new Date(lot.endsAt).getTime() - at)}`
                  : " ended: closing"}
              </p>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="won" label="Won" count={counts.won}>
        <ul className="mt-3 grid gap-2">
          {page.won.map((p) => {
            const next = nextStep(p);
            return (
              <li key={p.id} className={card}>
                <Link to={`/purchases/${p.id}`} className="font-semibold text-brand-700 underline">
                  {p.title}
                </Link>{" "}
                · lot {p.lotNumber}
                <p className="text-sm text-slate-600">
                  Invoice {formatUsd(p.totalCents, "cents")} ·{" "}
                  <strong>{PURCHASE_STATUS_LABELS[p.status]}</strong>
                  {p.status === "pending" && p.dueAt ? (
                    <>
                      {" "}
                      · {p.overdue ? "overdue since" : "due"}{" "}
                      <LocalTime at={p.dueAt} style="deadline" testId="due-at" />
                    </>
                  ) : null}
                </p>
                <Link
                  to={next.to}
                  className="mt-1 inline-block text-sm font-semibold text-brand-700 underline"
                >
                  Next: {next.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </Section>

      <Section id="lost" label="Lost" count={counts.lost}>
        <ul className="mt-3 grid gap-2">
          {page.lost.map((lot) => (
            <li key={lot.id} className={card}>
              <LotLink lot={lot} /> · lot {lot.lotNumber}
              <p className="text-sm text-slate-600">
                Sold for {formatUsd(lot.currentBid)} · my maximum {formatUsd(lot.myMax ?? "0")}
              </p>
            </li>
          ))}
        </ul>
      </Section>
    </div>
  );
}
