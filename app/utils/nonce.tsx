import { createContext, useContext, type ReactNode } from "react";

const NonceContext = createContext("");

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return <NonceContext.Provider value={value}>{children}</NonceContext.Provider>;
}

/** The per-request CSP nonce on the server; empty in the browser, where it is not needed. */
export function useNonce() {
  return useContext(NonceContext);
}
