import { useState } from "react";
import { lotPictures, type PictureLot } from "~/services/auctions/pictures";

/**
 * The lot's pictures: one large, the others as thumbnails that swap it (links without JS). A lot
 * without stored pictures shows the drawing of its body style in its colour, said to be one.
 */
export function LotPhotos({ lot }: { lot: PictureLot }) {
  const [photo, setPhoto] = useState(0);
  const pictures = lotPictures(lot);
  const thumbs = lotPictures(lot, "thumb");
  const shown = pictures[photo] ?? pictures[0];
  return (
    <>
      <img
        src={shown.src}
        alt={shown.alt}
        className={`aspect-[5/3] w-full rounded-lg bg-slate-200 ${shown.drawn ? "object-contain" : "object-cover"}`}
      />
      {shown.drawn && pictures.length === 1 ? (
        <p className="mt-1 text-xs text-slate-600">
          No photo yet: a drawing of its body style in its colour.
        </p>
      ) : null}
      {pictures.length > 1 ? (
        <ul className="mt-2 flex gap-2 overflow-x-auto">
          {pictures.map((picture, i) => (
            <li key={picture.src + i}>
              <a
                href={picture.full}
                onClick={(event) => {
                  event.preventDefault();
                  setPhoto(i);
                }}
                aria-label={`Show photo ${i + 1}`}
              >
                <img
                  src={thumbs[i].src}
                  alt=""
                  loading="lazy"
                  className="h-16 w-24 rounded object-cover"
                />
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
