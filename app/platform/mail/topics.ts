/**
 * The mail about money and the buyer's lots (docs/decisions/2754): each its own topic, so each
 * has its own preference and its own one-click unsubscribe. Every payment has a receipt:
 * invoices (`paid`), transport, deposits and memberships (docs/decisions/3305).
 */
export const MONEY_MAIL_TOPICS = [
  "won",
  "payment_due",
  "overdue",
  "paid",
  "deposit_receipt",
  "membership_receipt",
  "release",
  "transport",
  "outbid",
] as const;

/** The kinds of mail a person can stop one by one (each e-mail names its topic). */
export const MAIL_TOPICS = ["alerts", "messages", ...MONEY_MAIL_TOPICS] as const;
export type MailTopic = (typeof MAIL_TOPICS)[number];

/** What the footer of each e-mail says the person asked for ("… asked BidYard for <label>"). */
export const TOPIC_LABELS: Record<MailTopic, string> = {
  alerts: "saved-search and watched-lot alerts",
  messages: "notices of new messages",
  won: "“You won” e-mails with the invoice",
  payment_due: "reminders a day before a payment is due",
  overdue: "notices when a payment is overdue",
  paid: "receipts for your payments",
  deposit_receipt: "receipts for money you add to your deposit",
  membership_receipt: "receipts for your membership payments",
  release: "notices that a vehicle's release is ready for pickup",
  transport: "updates when your transport is claimed and delivered",
  outbid: "outbid alerts",
};

/** The account page's name for each preference. */
export const TOPIC_NAMES: Record<MailTopic, string> = {
  alerts: "Saved searches and watched lots",
  messages: "New messages",
  won: "You won (with the invoice)",
  payment_due: "Payment due within 24 hours",
  overdue: "Payment overdue",
  paid: "Payment receipts",
  deposit_receipt: "Deposit receipts",
  membership_receipt: "Membership receipts",
  release: "Release ready for pickup",
  transport: "Transport claimed and delivered",
  outbid: "Outbid",
};
