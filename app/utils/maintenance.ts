// What the maintenance page is told (the 503's data), shared by the server that throws it and the
// root error boundary that shows it (docs/decisions/2852).

export type MaintenanceNotice = {
  maintenance: true;
  message: string;
  /** The page reloads itself after this long (and Retry-After says the same). */
  retryAfterSeconds: number;
  /** Who is signed in, so the page greets them instead of offering Sign In / Register. */
  user: { firstName: string | null; email: string } | null;
};

export function isMaintenanceNotice(value: unknown): value is MaintenanceNotice {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { maintenance?: unknown }).maintenance === true &&
    typeof (value as { message?: unknown }).message === "string"
  );
}
