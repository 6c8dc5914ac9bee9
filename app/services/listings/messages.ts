// What the listing screens and calls say to the user, worded once. Plain data, importable by the
// browser and the server.
import { MAX_IMAGE_MEGAPIXELS } from "~/utils/file-type";
import { FREE_LISTINGS, MAX_PHOTO_MB, MAX_PHOTOS } from "./rules";

/** The shape of a flash toast (app/http/cookies.server.ts carries it across a redirect). */
export type ListingToast = {
  title: string;
  description?: string;
  type: "success" | "error" | "info";
};

export const LIMIT_REACHED_TITLE = "Posting Limit Reached";
export const LIMIT_REACHED = `You've used your ${FREE_LISTINGS} free listings. Upgrade to a membership to post more vehicles.`;

export const POSTED_TOAST: ListingToast = {
  title: "Vehicle Posted Successfully!",
  description: "Your vehicle is now live and visible to buyers.",
  type: "success",
};

export const LIMIT_REACHED_TOAST: ListingToast = {
  title: LIMIT_REACHED_TITLE,
  description: LIMIT_REACHED,
  type: "error",
};

/** A signed-out visitor who tries to post or manage a listing, before being sent to sign in. */
export const SIGN_IN_TO_POST_TOAST = {
  title: "Authentication Required",
  description: "Please log in to post a vehicle.",
  type: "error",
} as const;

export const UPDATED_TOAST: ListingToast = {
  title: "Listing Updated",
  description: "Your changes are live.",
  type: "success",
};

export const MARKED_SOLD_TOAST: ListingToast = {
  title: "Marked as Sold",
  description: "Buyers now see this vehicle as sold.",
  type: "success",
};

export const DELETED_TOAST: ListingToast = {
  title: "Listing Deleted",
  description: "Your vehicle is no longer listed.",
  type: "success",
};

export function favoriteToast(favorite: boolean): ListingToast {
  return favorite
    ? {
        title: "Saved to favorites",
        description: "Find it again under Favorites on your dashboard (/favorites).",
        type: "success",
      }
    : { title: "Removed from favorites", type: "success" };
}

/** Someone else's listing reads the same as a missing one: no hint that it exists. */
export const NOT_LISTED = "This vehicle is not listed.";

/** A page link whose cursor does not read as one of ours: the first page is shown instead. */
export const BAD_CURSOR_NOTICE =
  "That page link was not understood, so the first page of results is shown.";

export const PHOTO_MESSAGES = {
  type: "Photos must be JPG or PNG images.",
  too_large: `Each photo must be at most ${MAX_PHOTO_MB} MB.`,
  too_many: `Add at most ${MAX_PHOTOS} photos.`,
  unreadable: "A photo could not be read. Choose another JPG or PNG image.",
  pixels: `A photo is too large to read: at most ${MAX_IMAGE_MEGAPIXELS} megapixels. Choose a smaller image.`,
  empty: "A photo is empty (0 bytes). Choose a JPG or PNG image.",
  unsafe: "A photo contains web page or script content, which is not accepted.",
  name: "A photo's file name is not valid (it names a folder path). Rename the file and try again.",
  unavailable: "Photos cannot be saved right now. Please try again in a few minutes.",
} as const;
export type PhotoProblem = keyof typeof PHOTO_MESSAGES;
