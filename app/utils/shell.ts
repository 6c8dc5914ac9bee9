/** Set by the sign-in callback for the browser: the onboarding dialog may open once after it. */
export const SIGNED_IN_MARKER = "bidyard_signed_in";
/** The banner close, remembered in localStorage (for the browser) and a cookie (so the server skips it). */
export const BETA_BANNER_CLOSED = "beta_banner_closed";
export const ONBOARDING_COMPLETED = "onboarding_completed";

/** The beta banner's text until an admin changes it (the banner renders this one with emphasis). */
export const DEFAULT_BETA_BANNER_TEXT =
  "BETA VERSION · Official Launch Coming Soon · Join now for exclusive pre-launch benefits";

/** The early-access form's honeypot field (people leave it empty; form-filling bots do not). */
export const HONEYPOT_FIELD = "website";
