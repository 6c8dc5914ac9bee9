// The local mail catcher: a real SMTP server that keeps what it receives in memory, and a small
// web page to read it. `npm run dev` and the e2e server start it; the app sends to it through
// SMTP_URL exactly as it would to a real provider. Never used in production.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type CaughtMail = {
  id: number;
  receivedAt: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  messageId: string | null;
  headers: Record<string, string>;
  /** Files sent with it (the won e-mail's invoice); text files keep their content. */
  attachments: Array<{
    filename: string;
    contentType: string;
    size: number;
    content: string | null;
  }>;
};

export type MailCatcher = {
  smtpUrl: string;
  webUrl: string;
  messages: CaughtMail[];
  stop: () => Promise<void>;
};

const KEEP = 500;

function escapeHtml(text: string) {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:0 auto;max-width:960px;padding:12px;color:#0f172a}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #e2e8f0;padding:6px;text-align:left;vertical-align:top;word-break:break-word}
pre{white-space:pre-wrap;word-break:break-word;background:#f8fafc;padding:8px}iframe{width:100%;height:480px;border:1px solid #cbd5e1}</style>
</head><body>${body}</body></html>`;
}

function listPage(messages: CaughtMail[]) {
  const rows = [...messages]
    .reverse()
    .map(
      (m) =>
        `<tr><td>${escapeHtml(new Date(m.receivedAt).toLocaleString("en-US"))}</td><td>${escapeHtml(m.to.join(", "))}</td><td><a href="/messages/${m.id}">${escapeHtml(m.subject || "(no subject)")}</a></td></tr>`,
    )
    .join("");
  return page(
    "Mail catcher · BidYard",
    `<h1>Mail sent by BidYard (local)</h1>
<p>Every e-mail the app sent since this server started, newest first. Nothing here left this computer. <a href="/">Refresh</a> · <a href="/messages.json">JSON</a></p>
${messages.length === 0 ? "<p>No mail yet.</p>" : `<table><thead><tr><th scope="col">Received</th><th scope="col">To</th><th scope="col">Subject</th></tr></thead><tbody>${rows}</tbody></table>`}`,
  );
}

function messagePage(m: CaughtMail) {
  const headers = Object.entries(m.headers)
    .map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
    .join("");
  return page(
    `${m.subject} · Mail catcher`,
    `<p><a href="/">← All mail</a></p><h1>${escapeHtml(m.subject || "(no subject)")}</h1>
<table><tbody>${headers}</tbody></table>
<h2>Text</h2><pre>${escapeHtml(m.text)}</pre>
${m.html ? `<h2>HTML</h2><iframe title="HTML body" sandbox srcdoc="${escapeHtml(m.html)}"></iframe>` : ""}
${
  m.attachments.length
    ? `<h2>Attachments</h2><ul>${m.attachments
        .map(
          (a, i) =>
            `<li><a href="/messages/${m.id}/attachments/${i}">${escapeHtml(a.filename)}</a> (${escapeHtml(a.contentType)}, ${a.size} bytes)</li>`,
        )
        .join("")}</ul>`
    : ""
}`,
  );
}

export async function startMailCatcher(
  options: { smtpPort?: number; webPort?: number; host?: string } = {},
): Promise<MailCatcher> {
  const host = options.host ?? "127.0.0.1";
  const messages: CaughtMail[] = [];
  let nextId = 1;

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const headers: Record<string, string> = {};
          for (const [key, value] of parsed.headers) {
            if (typeof value === "string") headers[key] = value;
            else if (value && typeof value === "object" && "text" in value)
              headers[key] = String((value as { text: string }).text);
            else if (value instanceof Date) headers[key] = value.toISOString();
          }
          for (const line of parsed.headerLines) {
            const name = line.key;
            if (name.startsWith("list-"))
              headers[name] = line.line.slice(line.line.indexOf(":") + 1).trim();
          }
          messages.push({
            id: nextId++,
            receivedAt: new Date().toISOString(),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : null,
            messageId: parsed.messageId ?? null,
            headers,
            attachments: parsed.attachments.map((a) => ({
              filename: a.filename ?? "attachment",
              contentType: a.contentType,
              size: a.size,
              content: a.contentType.startsWith("text/") ? a.content.toString("utf8") : null,
            })),
          });
          if (messages.length > KEEP) messages.splice(0, messages.length - KEEP);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once("error", reject);
    smtp.listen(options.smtpPort ?? 0, host, () => resolve());
  });
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const web = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://catcher");
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store" });
      response.end(body);
    };
    if (url.pathname === "/") return send(200, "text/html; charset=utf-8", listPage(messages));
    if (url.pathname === "/messages.json")
      return send(200, "application/json", JSON.stringify(messages));
    const file = /^\/messages\/(\d+)\/attachments\/(\d+)$/.exec(url.pathname);
    const attachment = file
      ? messages.find((m) => m.id === Number(file[1]))?.attachments[Number(file[2])]
      : undefined;
    if (attachment) {
      // shown as sent, sandboxed: an attachment's scripts never run on this page's origin
      response.writeHead(200, {
        "Content-Type": attachment.contentType,
        "Content-Security-Policy": "sandbox",
        "Cache-Control": "no-store",
      });
      return response.end(attachment.content ?? "(binary attachment not kept)");
    }
    const match = /^\/messages\/(\d+)$/.exec(url.pathname);
    const found = match ? messages.find((m) => m.id === Number(match[1])) : undefined;
    if (found) return send(200, "text/html; charset=utf-8", messagePage(found));
    return send(404, "text/plain", "Not found");
  });
  await new Promise<void>((resolve, reject) => {
    web.once("error", reject);
    web.listen(options.webPort ?? 0, host, () => resolve());
  });
  const webPort = (web.address() as AddressInfo).port;

  return {
    smtpUrl: `smtp://${host}:${smtpPort}`,
    webUrl: `http://${host}:${webPort}`,
    messages,
    stop: async () => {
      await new Promise<void>((resolve) => web.close(() => resolve()));
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}
