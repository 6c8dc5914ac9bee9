import { REVIEW_TIME } from "~/services/kyc/status";

const CARDS = [
  {
    id: "requirements-heading",
    title: "Requirements",
    items: [
      "Clear, unblurred image",
      "All corners of the document visible",
      "No glare or shadows",
      "Text clearly readable",
    ],
  },
  {
    id: "security-heading",
    title: "Security",
    items: [
      "SSL encrypted upload",
      `Reviewed ${REVIEW_TIME}`,
      "Compliant with regulations",
      "Your data is securely stored",
    ],
  },
];

/** What a good photo of the document looks like, and how it is kept. */
export function Guidance() {
  return (
    <aside className="space-y-6">
      {CARDS.map((card) => (
        <section
          key={card.id}
          aria-labelledby={card.id}
          className="rounded-lg border border-slate-200 bg-white p-5"
        >
          <h2 id={card.id} className="font-semibold">
            {card.title}
          </h2>
          <ul className="mt-2 list-inside list-disc space-y-1 text-sm text-slate-700">
            {card.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
      ))}
    </aside>
  );
}
