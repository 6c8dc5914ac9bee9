import type { Toast } from "~/utils/toast";

export const SEARCH_SAVED: Toast = {
  title: "Search saved",
  description: "We will tell you here and by e-mail when something new matches it.",
  type: "success",
};
export const SEARCH_ALREADY_SAVED: Toast = {
  title: "Already saved",
  description: "This search is already in your saved searches.",
  type: "info",
};
export const SEARCH_DELETED: Toast = { title: "Saved search deleted", type: "success" };
export const SEARCH_UPDATED: Toast = { title: "Saved search updated", type: "success" };
