// The one shape of a toast, whichever way it reaches the toaster (docs/architecture.md, "Toasts").
export type Toast = {
  title: string;
  description?: string;
  type?: "success" | "error" | "info";
};

/** The `toast` an action or JSON answer carries, if it carries a well-formed one. */
export function toastIn(data: unknown): Toast | null {
  const toast = data && typeof data === "object" ? (data as { toast?: unknown }).toast : null;
  if (!toast || typeof toast !== "object") return null;
  const { title, description, type } = toast as Record<string, unknown>;
  if (typeof title !== "string") return null;
  return {
    title,
    ...(typeof description === "string" ? { description } : {}),
    ...(type === "success" || type === "error" || type === "info" ? { type } : {}),
  };
}
