/** The kinds of mail a person can stop one by one (each e-mail names its topic). */
export const MAIL_TOPICS = ["alerts", "messages"] as const;
export type MailTopic = (typeof MAIL_TOPICS)[number];

export const TOPIC_LABELS: Record<MailTopic, string> = {
  alerts: "saved-search and watched-lot alerts",
  messages: "notices of new messages",
};
