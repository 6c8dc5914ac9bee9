// The SMTP connection: nodemailer over SMTP_URL (the local catcher in development). nodemailer is
// loaded with the first mail sent, not with every server process (about 10 MB a process that
// sends none; docs/decisions/1913).
import type { SendMailOptions, Transporter } from "nodemailer";
import { env } from "~/platform/env.server";

export type MailTransport = { sendMail: (mail: SendMailOptions) => Promise<unknown> };

let cached: { url: string; transport: MailTransport } | undefined;

/**
 * Short timeouts: one send ends within about 50 s, well inside the outbox claim that is renewed
 * just before it (CLAIM_MS, two minutes).
 */
export function smtpTransport(url: string): MailTransport {
  const options = {
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  };
  let transport: Promise<Transporter> | null = null;
  return {
    sendMail: async (mail) => {
      // a failed load is tried again with the next mail
      transport ??= import("nodemailer")
        .then(({ default: nodemailer }) =>
          nodemailer.createTransport(options as Parameters<typeof nodemailer.createTransport>[0]),
        )
        .catch((error) => {
          transport = null;
          throw error;
        });
      return (await transport).sendMail(mail);
    },
  };
}

/** The configured transport, or null when SMTP_URL is not set (mail then waits in the outbox). */
export function mailTransport(): MailTransport | null {
  const url = env().SMTP_URL;
  if (!url) return null;
  if (cached?.url !== url) cached = { url, transport: smtpTransport(url) };
  return cached.transport;
}
