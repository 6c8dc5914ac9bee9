// What the registration page shows around the form: why to join, and where an application stands.
const PITCH = [
  {
    title: "Guaranteed Payments",
    body: "Get paid for every completed job. Our platform fee is deducted automatically from each payout, so there are no invoices to chase.",
  },
  {
    title: "Flexible Services",
    body: "Offer domestic shipping, international export, or both, in the areas you choose.",
  },
  {
    title: "Growing Market",
    body: "Every vehicle won at auction needs to move. Claim jobs from buyers across the US.",
  },
];

export function Pitch() {
  return (
    <ul className="mt-6 grid gap-4 sm:grid-cols-3">
      {PITCH.map((item) => (
        <li key={item.title} className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 className="font-semibold text-brand-800">{item.title}</h2>
          <p className="mt-1 text-sm text-slate-600">{item.body}</p>
        </li>
      ))}
    </ul>
  );
}

export function StatusCard(props: {
  title: string;
  badge: React.ReactNode;
  body: string;
  action: React.ReactNode;
}) {
  return (
    <div className="mx-auto max-w-xl px-4 py-12 text-center">
      <div className="rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-2xl font-bold">{props.title}</h1>
        <div className="mt-3">{props.badge}</div>
        <p className="mt-4 text-slate-600">{props.body}</p>
        <div className="mt-6">{props.action}</div>
      </div>
    </div>
  );
}
