// How an invoice is paid, in the words the invoice page, the "You won" notice and every money
// e-mail use (issue 42, finding 6; record 3512): the page offers two ways (record 3313), from the
// deposit (its free part first, the rest through the gateway) or all through the gateway, and the
// buyer chooses. Plain TypeScript: the page (browser) and the e-mails (server) share it.

/** The gateway as the words name it: "PayPal", or "the test gateway" in TEST MODE. */
export function gatewayWords(testMode: boolean) {
  return testMode ? "the test gateway" : "PayPal";
}

/** The two ways an invoice can be paid, as every money text words them. */
export function payWays(testMode: boolean) {
  const gateway = gatewayWords(testMode);
  return `from your deposit (any rest through ${gateway}) or all through ${gateway}`;
}

/** The sentence a notice or an e-mail uses to say how the invoice can be paid. */
export function howToPay(testMode: boolean) {
  return `On the invoice page you choose how to pay: ${payWays(testMode)}.`;
}

/**
 * What paid an invoice, one sentence per part, e.g. "From your deposit: $1,000.00." Amounts come
 * formatted; a part that is null or empty is left out. The receipt e-mail and the paid invoice
 * page both list these.
 */
export function paidParts(parts: { deposit: string | null; gateway: string | null }) {
  return [
    ...(parts.deposit ? [`From your deposit: ${parts.deposit}.`] : []),
    ...(parts.gateway ? [`Through the payment provider: ${parts.gateway}.`] : []),
  ];
}
