import type { Toast } from "~/utils/toast";

export const CONTACT_ANSWERED: Toast = { title: "Marked as answered", type: "success" };
export const CONTACT_NOT_FOUND = "This message does not exist or was already answered.";
