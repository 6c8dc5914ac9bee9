/**
 * The sentences of the Terms of Service and the Privacy Policy that promise a behaviour, one
 * source for the pages (which render them through <Promised id=… />) and for the register of
 * promises, docs/promises.md, whose unit test checks that each one names the test that keeps
 * it (docs/decisions/3522). `{name}` marks a figure or a link the page fills in.
 */
export type LegalPage = "terms" | "privacy";

export const PROMISES = {
  // Terms of Service
  "terms.verified-identity": {
    page: "terms",
    text: "Bidding needs a verified identity: you send a driver's licence, passport or state ID on the {identityVerification} page and an admin approves it (usually within 24 hours) or tells you why not.",
  },
  "terms.minimum-deposit": {
    page: "terms",
    text: "Bidding needs at least {minimumDeposit} on deposit.",
  },
  "terms.maximum-payment": {
    page: "terms",
    text: "One payment can add at most {maximumDeposit}.",
  },
  "terms.credit-captured": {
    page: "terms",
    text: "We credit exactly what the payment provider says it captured.",
  },
  "terms.buying-power": {
    page: "terms",
    text: "Your buying power is your deposit minus what it already backs: your maximum bids on lots you are winning and your unpaid invoices.",
  },
  "terms.bid-above-buying-power": {
    page: "terms",
    text: "A bid (or a proxy maximum) above your buying power is refused.",
  },
  "terms.outbid-frees": {
    page: "terms",
    text: "Being outbid frees that amount at once.",
  },
  "terms.refund-available": {
    page: "terms",
    text: "Refunds: you can ask for the part of your deposit that backs nothing (your buying power) back at any time on the {deposit} page.",
  },
  "terms.refund-same-way": {
    page: "terms",
    text: "It is refunded to the payment method you paid with, through the same payment provider; your bank may take a few business days to show it.",
  },
  "terms.held-not-refundable": {
    page: "terms",
    text: "What is held for a lot you lead or an invoice you owe cannot be refunded until that lot is lost or the invoice is paid.",
  },
  "terms.proxy-bids": {
    page: "terms",
    text: "A proxy maximum bids for you, only as much as needed to keep you ahead.",
  },
  "terms.soft-close": {
    page: "terms",
    text: "A bid in a lot's last two minutes extends it by two minutes.",
  },
  "terms.highest-maximum-wins": {
    page: "terms",
    text: "The highest maximum wins; on a tie, the earlier bid.",
  },
  "terms.all-in-total": {
    page: "terms",
    text: "Every lot page shows the all-in total in dollars before you bid, from the same schedule the invoice uses.",
  },
  "terms.invoice-due": {
    page: "terms",
    text: "The invoice is due {dueBusinessDays} business {days} after the sale, at the end of the yard's business day; the invoice shows the exact time in your time zone.",
  },
  "terms.pay-ways": {
    page: "terms",
    text: "You can pay from your deposit, through the payment gateway, or both.",
  },
  "terms.release": {
    page: "terms",
    text: "A paid invoice gets a release with a pickup code for the yard.",
  },
  "terms.penalties": {
    page: "terms",
    text: "What paying late, not paying and storage cost",
  },
  "terms.default-when": {
    page: "terms",
    text: "Default: once an invoice is unpaid past its due date and the grace days above, an admin may cancel the sale.",
  },
  "terms.default-fee": {
    page: "terms",
    text: "The default fee is then taken from your deposit, the rest of what was held for that lot is released back to your buying power, and the lot is relisted or closed.",
  },
  "terms.membership-period": {
    page: "terms",
    text: "Memberships are paid for a period ahead and stay active to its end when cancelled; a free trial charges nothing.",
  },
  "terms.transport-paid": {
    page: "terms",
    text: "Transport is paid when you confirm the order.",
  },
  "terms.transport-paid-once": {
    page: "terms",
    text: "A transport order is charged once: a second payment for it is refunded in full to the way you paid.",
  },
  "terms.provider-review": {
    page: "terms",
    text: "Providers apply with their company details and licence; an admin approves or rejects the application.",
  },
  "terms.first-claim-wins": {
    page: "terms",
    text: "An approved provider claims open orders; the first claim wins.",
  },
  "terms.provider-earnings": {
    page: "terms",
    text: "On completion the provider earns the order's price less the platform fee of {platformFeePercent}%.",
  },
  "terms.reported-messages": {
    page: "terms",
    text: "Abusive or misleading messages; reported messages are read by an admin.",
  },
  // Privacy Policy
  "privacy.address-limits": {
    page: "privacy",
    text: "For security: the address your requests come from is used to limit repeated attempts and appears in our server logs.",
  },
  "privacy.id-who-sees": {
    page: "privacy",
    text: "Who sees it: you, and BidYard's admins when they review it.",
  },
  "privacy.id-short-link": {
    page: "privacy",
    text: "It is stored privately and opened only through a link that works for five minutes.",
  },
  "privacy.bidder-number": {
    page: "privacy",
    text: "Sellers, other buyers and service providers never see it; your bids show as a bidder number, never your name.",
  },
  "privacy.provider-no-contact": {
    page: "privacy",
    text: "A service provider who claims your transport order sees the vehicle and the pickup and delivery places, not your e-mail address or phone number.",
  },
  "privacy.messages-first-name": {
    page: "privacy",
    text: "Someone you message about a listing sees your first name and your messages, never your e-mail address.",
  },
  "privacy.mail-switches": {
    page: "privacy",
    text: "Each kind has its own switch on your {accountPage} and a one-click unsubscribe link in every e-mail.",
  },
} as const satisfies Record<string, { page: LegalPage; text: string }>;

export type PromiseId = keyof typeof PROMISES;

/** A promise's words with its `{name}` marks left in: a heading, or the register's quote. */
export function promiseText(id: PromiseId): string {
  return PROMISES[id].text;
}
