// The soak's SMTP server: every instance sends its outbox here (SMTP_URL), and this counts what
// arrives by Message-ID, so the soak can tell that each queued e-mail was delivered once, whichever
// machine sent it (docs/decisions/2151: the outbox's claim and token), and when each first arrived
// (Date.now() as its data ends: the e-mail's latency, docs/decisions/3567).
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export async function startMailCounter() {
  const deliveries = new Map<string, number>();
  const firstReceived = new Map<string, number>();
  let withoutId = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      let head = "";
      stream.on("data", (chunk: Buffer) => {
        if (head.length < 16_384) head += chunk.toString("latin1");
      });
      stream.on("end", () => {
        const id = /^message-id:\s*(\S+)/im.exec(head.split(/\r?\n\r?\n/)[0])?.[1];
        if (id) {
          deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
          if (!firstReceived.has(id)) firstReceived.set(id, Date.now());
        } else withoutId += 1;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    deliveries,
    firstReceived,
    withoutId: () => withoutId,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
