// What picture a lot shows, everywhere it shows one (lot card, lot page, sold results): its own
// stored pictures when it has them, else the drawing of its body style in its colour
// (docs/decisions/2105-lot-pictures.md). Plain data in, plain data out: browser and server.
import { bodyKind, paintName, vehicleArtUrl, type BodyKind } from "~/services/vehicles/drawing";

/** Where stored lot pictures are served: /lot-pictures/{id}, and ?size=thumb for the card size. */
export const LOT_PICTURE_PATH = "/lot-pictures/";

export type PictureSize = "full" | "thumb";

/** The fields a lot needs for its picture (a list row has `imageUrl`, a page `imageUrls`). */
export type PictureLot = {
  year: number;
  make: string;
  model: string;
  bodyStyle?: string | null;
  color?: string | null;
  imageUrls?: readonly string[] | null;
  imageUrl?: string | null;
};

export type LotPicture = {
  /** The URL for the size asked for. */
  src: string;
  /** The full-size URL (the same as `src` for a drawing). */
  full: string;
  alt: string;
  /** A drawing of the body style and colour, not a photo of this vehicle. */
  drawn: boolean;
};

const KIND_WORDS: Record<BodyKind, string> = {
  sedan: "sedan",
  coupe: "coupe",
  convertible: "convertible",
  hatchback: "hatchback",
  wagon: "wagon",
  suv: "SUV",
  truck: "pickup",
  van: "van",
};

/** The URL of a stored picture in the size asked for. */
export function lotPictureUrl(id: string | number, size: PictureSize = "full") {
  return `${LOT_PICTURE_PATH}${id}${size === "thumb" ? "?size=thumb" : ""}`;
}

/** A lot's picture URL at another size: only our stored pictures have a thumbnail. */
export function pictureAtSize(url: string, size: PictureSize) {
  if (!url.startsWith(LOT_PICTURE_PATH)) return url;
  const base = url.split("?")[0];
  return size === "thumb" ? `${base}?size=thumb` : base;
}

export function lotTitle(lot: Pick<PictureLot, "year" | "make" | "model">) {
  return `${lot.year} ${lot.make} ${lot.model}`;
}

/** "Drawing of the 2019 Toyota Camry, a silver sedan" (the colour only when we know it). */
export function drawingAlt(lot: PictureLot) {
  const paint = paintName(lot.color);
  const kind = KIND_WORDS[bodyKind(lot.bodyStyle)];
  const first = paint ?? kind;
  const article = /^[aeiou]/i.test(first) || first === "SUV" ? "an" : "a";
  return `Drawing of the ${lotTitle(lot)}, ${article} ${paint ? `${paint} ` : ""}${kind}`;
}

/** The drawing of the lot's body style in its colour. */
export function lotDrawing(lot: PictureLot): LotPicture {
  const src = vehicleArtUrl(lot.bodyStyle, lot.color);
  return { src, full: src, alt: drawingAlt(lot), drawn: true };
}

/**
 * Every picture the lot shows, first one first: its stored pictures, or (with none) the one
 * drawing. Never empty. The alt text names the vehicle; a drawing says it is one.
 */
export function lotPictures(lot: PictureLot, size: PictureSize = "full"): LotPicture[] {
  const urls = (lot.imageUrls ?? (lot.imageUrl ? [lot.imageUrl] : [])).filter(Boolean);
  if (urls.length === 0) return [lotDrawing(lot)];
  const title = lotTitle(lot);
  return urls.map((url, index) => {
    // demo lots carry their drawing's URL in image_urls (docs/decisions/2103)
    if (url.startsWith("/vehicle-art/"))
      return { src: url, full: url, alt: drawingAlt(lot), drawn: true };
    return {
      src: pictureAtSize(url, size),
      full: pictureAtSize(url, "full"),
      alt: urls.length > 1 ? `${title}, photo ${index + 1} of ${urls.length}` : title,
      drawn: false,
    };
  });
}

/** The lot's first picture (a card, a results row): a stored one, or its drawing. */
export function lotPicture(lot: PictureLot, size: PictureSize = "full"): LotPicture {
  return lotPictures(lot, size)[0];
}
