import type { Toast } from "~/utils/toast";

export const MESSAGE_SENT: Toast = { title: "Message sent", type: "success" };
export const MESSAGE_REPORTED: Toast = {
  title: "Reported",
  description: "Thank you. An admin will look at this message.",
  type: "success",
};
export const REPORT_RESOLVED: Toast = { title: "Report closed", type: "success" };
export const OWN_LISTING = "This is your own listing: buyers write to you here.";
export const THREAD_NOT_FOUND = "This conversation does not exist.";
export const LISTING_NOT_AVAILABLE = "This vehicle is no longer listed.";
export const ORDER_NOT_FOUND_FOR_MESSAGES = "This transport job was not found.";
export const ORDER_NOT_CLAIMED = "No carrier has claimed this job yet: you can write once one has.";
