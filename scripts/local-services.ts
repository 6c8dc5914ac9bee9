// Local stand-ins that speak the real protocols (the OIDC issuer and others) for dev and tests.
// Never used in production: there every outside service is configured through the environment.
export type LocalServices = { env: Record<string, string>; stop: () => Promise<void> };

export type LocalServicesOptions = {
  /** The app's public origin, whose /api/callback the local issuer accepts. */
  appUrl?: string;
  /** Port for the local issuer; 0 picks a free one (tests), default LOCAL_OIDC_PORT or 3555. */
  oidcPort?: number;
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

  return {
    env,
    stop: async () => {
      for (const stop of stops.reverse()) await stop().catch(() => undefined);
    },
  };
}
