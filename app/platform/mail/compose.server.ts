// One plain layout for every e-mail: a few paragraphs, at most one button, and the footer that
// says why the mail came and how to stop it.
import { TOPIC_LABELS, type MailTopic } from "./topics";

export type MailContent = {
  /** Paragraphs of plain text, in order. */
  paragraphs: string[];
  /** Things to open, each a link on its own line (the new listings of an alert). */
  links?: Array<{ label: string; url: string }>;
  /** The one thing to open, as an absolute URL. */
  action?: { label: string; url: string };
};

function escapeHtml(text: string) {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

export function composeMail(content: MailContent, topic: MailTopic, unsubscribeLink: string) {
  const footer = `You get this because you asked BidYard for ${TOPIC_LABELS[topic]}. Stop them with one click: ${unsubscribeLink}`;
  const links = content.links ?? [];
  const text = [
    ...content.paragraphs,
    ...(links.length ? [links.map((link) => `${link.label}: ${link.url}`).join("\n")] : []),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`] : []),
    "--",
    footer,
  ].join("\n\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;max-width:560px;margin:0 auto;padding:16px;color:#0f172a">
${content.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n")}
${links.length ? `<ul>${links.map((link) => `<li><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></li>`).join("")}</ul>` : ""}
${content.action ? `<p><a href="${escapeHtml(content.action.url)}" style="display:inline-block;background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(content.action.label)}</a></p>` : ""}
<hr><p style="font-size:12px;color:#475569">You get this because you asked BidYard for ${escapeHtml(TOPIC_LABELS[topic])}. <a href="${escapeHtml(unsubscribeLink)}">Unsubscribe</a> with one click.</p>
</body></html>`;
  return { text, html };
}
