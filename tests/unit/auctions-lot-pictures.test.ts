import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { lotPicture, lotPictures, pictureAtSize } from "~/services/auctions/pictures";
import { activeContentIn } from "~/platform/file-safety.server";
import { detectImageType } from "~/utils/file-type";

const camry = {
  year: 2019,
  make: "Toyota",
  model: "Camry",
  bodyStyle: "SEDAN 4D",
  color: "SILVER",
};

describe("lotPicture: one picture rule for every place a lot is shown", () => {
  it("a lot without stored pictures shows the drawing of its body style in its colour", () => {
    for (const lot of [camry, { ...camry, imageUrls: [] }, { ...camry, imageUrl: null }])
      expect(lotPicture(lot)).toEqual({
        src: "/vehicle-art/sedan-silver.svg",
        full: "/vehicle-art/sedan-silver.svg",
        alt: "Drawing of the 2019 Toyota Camry, a silver sedan",
        drawn: true,
      });
    const pickup = { year: 2017, make: "Ford", model: "F150", bodyStyle: "PICKUP", color: "WHITE" };
    expect(lotPicture(pickup, "thumb")).toMatchObject({
      src: "/vehicle-art/truck-white.svg",
      alt: "Drawing of the 2017 Ford F150, a white pickup",
    });
    // a colour we cannot paint is drawn silver but not called silver
    expect(
      lotPicture({
        year: 2020,
        make: "Jeep",
        model: "Cherokee",
        bodyStyle: "4DR SPOR",
        color: "TWO TONE",
      }),
    ).toMatchObject({
      src: "/vehicle-art/sedan-silver.svg",
      alt: "Drawing of the 2020 Jeep Cherokee, a sedan",
    });
    expect(
      lotPicture({
        year: 2021,
        make: "Kia",
        model: "Sorento",
        bodyStyle: "SPORT UTILITY",
        color: null,
      }).alt,
    ).toBe("Drawing of the 2021 Kia Sorento, an SUV");
    expect(lotPicture({ ...camry, color: "ORANGE" }).alt).toBe(
      "Drawing of the 2019 Toyota Camry, an orange sedan",
    );
  });

  it("stored pictures come first, at card size as the WebP thumbnail, named by the vehicle", () => {
    const lot = { ...camry, imageUrls: ["/lot-pictures/41", "/lot-pictures/42"] };
    expect(lotPicture(lot, "thumb")).toEqual({
      src: "/lot-pictures/41?size=thumb",
      full: "/lot-pictures/41",
      alt: "2019 Toyota Camry, photo 1 of 2",
      drawn: false,
    });
    expect(lotPictures(lot).map((p) => p.src)).toEqual(["/lot-pictures/41", "/lot-pictures/42"]);
    // a list row carries only its first picture
    expect(lotPicture({ ...camry, imageUrl: "/lot-pictures/41" }, "thumb")).toMatchObject({
      src: "/lot-pictures/41?size=thumb",
      alt: "2019 Toyota Camry",
    });
    // a demo lot's drawing in image_urls is still called a drawing; other URLs are kept as given
    expect(lotPicture({ ...camry, imageUrls: ["/vehicle-art/sedan-red.svg"] })).toMatchObject({
      src: "/vehicle-art/sedan-red.svg",
      drawn: true,
    });
    expect(pictureAtSize("/listing-photos/9", "thumb")).toBe("/listing-photos/9");
    expect(pictureAtSize("/lot-pictures/9?size=thumb", "full")).toBe("/lot-pictures/9");
  });
});

describe("WebP pictures from a feed", () => {
  it("are recognised by their first bytes and refused with markup in their metadata", async () => {
    const webp = new Uint8Array(
      await sharp({ create: { width: 64, height: 40, channels: 3, background: "#336699" } })
        .webp()
        .toBuffer(),
    );
    expect(detectImageType(webp)).toBe("webp");
    expect(detectImageType(new TextEncoder().encode("RIFF\0\0\0\0WAVEfmt "))).toBeNull();
    expect(detectImageType(new TextEncoder().encode("<!doctype html><p>hi</p>"))).toBeNull();
    expect(activeContentIn(webp, "webp")).toBeNull();
    // an XMP chunk carrying a page, the RIFF size grown to hold it
    const xmp = new TextEncoder().encode("<svg onload=alert(1)></svg>");
    const chunk = new Uint8Array(8 + xmp.length + (xmp.length % 2));
    chunk.set(new TextEncoder().encode("XMP "), 0);
    new DataView(chunk.buffer).setUint32(4, xmp.length, true);
    chunk.set(xmp, 8);
    const withXmp = new Uint8Array(webp.length + chunk.length);
    withXmp.set(webp, 0);
    withXmp.set(chunk, webp.length);
    new DataView(withXmp.buffer).setUint32(4, withXmp.length - 8, true);
    expect(activeContentIn(withXmp, "webp")).toMatch(/<svg/);
  });
});
