/** What a seller reads about a VIN the form refuses (the schema and the server share them). */
export const VIN_MESSAGES = {
  malformed: "A VIN is 17 letters and digits (no I, O or Q).",
  checkDigit:
    "This VIN fails its check digit (character 9): one character is probably mistyped. Check it against the title or the windshield plate.",
} as const;
