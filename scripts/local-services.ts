// Local stand-ins that speak the real protocols (the OIDC issuer and others) for dev and tests.
// Never used in production: there every outside service is configured through the environment.
const STOP_WAIT_MS = 2_000;

/** Waits for `stop`, or STOP_WAIT_MS at most. */
async function stopWithin(stop: () => Promise<void>) {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)));
  await Promise.race([stop().catch(() => undefined), waited]);
  clearTimeout(timer);
}

export type LocalServices = { env: Record<string, string>; stop: () => Promise<void> };

export type LocalServicesOptions = {
  /** The app's public origin, whose /api/callback the local issuer accepts. */
  appUrl?: string;
  /** Port for the local issuer; 0 picks a free one (tests), default LOCAL_OIDC_PORT or 3555. */
  oidcPort?: number;
  /** Port for the mail catcher's page; 0 picks a free one (tests), default 3556. */
  mailCatcherPort?: number;
};

export async function startLocalServices(
  options: LocalServicesOptions = {},
): Promise<LocalServices> {
  const env: Record<string, string> = {};
  const stops: Array<() => Promise<void>> = [];

  if (!process.env.OIDC_ISSUER && process.env.NODE_ENV !== "production") {
    const { startLocalIssuer } = await import("./local-issuer");
    const appUrl =
      options.appUrl ?? process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
    const issuer = await startLocalIssuer({
      port: options.oidcPort ?? Number(process.env.LOCAL_OIDC_PORT ?? 3555),
      redirectUris: [`${new URL(appUrl).origin}/api/callback`],
    });
    env.LOCAL_OIDC_PORT = String(issuer.port);
    stops.push(issuer.stop);
  }

  if (!process.env.SMTP_URL && process.env.NODE_ENV !== "production") {
    const { startMailCatcher } = await import("./mail-catcher");
    const catcher = await startMailCatcher({
      webPort: options.mailCatcherPort ?? Number(process.env.MAIL_CATCHER_PORT ?? 3556),
    });
    env.SMTP_URL = catcher.smtpUrl;
    env.MAIL_CATCHER_URL = catcher.webUrl;
    console.log(`Mail catcher: every e-mail the app sends is at ${catcher.webUrl}`);
    stops.push(catcher.stop);
  }

  return {
    env,
    // Each given a moment: a server still holding a browser's keep-alive connection must not keep
    // `npm run dev` from stopping.
    stop: async () => {
      for (const stop of stops.reverse()) {
        await stopWithin(stop);
      }
    },
  };
}
