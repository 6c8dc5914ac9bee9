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
export const SEARCH_EMAIL_ON: Toast = {
  title: "E-mail on",
  description: "New matches for this search are e-mailed to you again.",
  type: "success",
};
export const SEARCH_NOT_SAVED: Toast = {
  title: "Search not saved",
  description: "That search cannot be saved.",
  type: "error",
};
