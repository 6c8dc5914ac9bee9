// Real descriptors (positions 1-8 of a 2019 Honda Accord LX and a 2019 Toyota RAV4 LE) with valid
// check digits, the Accord's with one character mistyped, and a Post Vehicle form for the Accord.
export const ACCORD_2019 = "1HGCV1F33KA123456";
export const RAV4_2019 = "2T3P1RFV5KC123456";
export const MISTYPED = "1HGCV1F34KA123456";

export const ACCORD_FORM = {
  title: "2019 Honda Accord LX",
  make: "Honda",
  model: "Accord",
  year: "2019",
  price: "17500",
  condition: "good",
  city: "Austin",
  vin: ACCORD_2019,
};

export type ListingReply = { data: { error: Record<string, string[]> }; init: { status: number } };
