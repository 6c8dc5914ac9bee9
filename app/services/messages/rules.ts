/** The longest message (the database says the same). */
export const MAX_MESSAGE_LENGTH = 2000;
export const MAX_REPORT_REASON_LENGTH = 500;
