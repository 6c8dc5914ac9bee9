import { useState } from "react";

/** The lot's photos: one large, the others as thumbnails that swap it (links without JS). */
export function LotPhotos({ images, title }: { images: string[]; title: string }) {
  const [photo, setPhoto] = useState(0);
  if (images.length === 0) {
    return (
      <div className="flex aspect-[5/3] w-full items-center justify-center rounded-lg bg-slate-200 text-slate-500">
        No photo available
      </div>
    );
  }
  return (
    <>
      <img
        src={images[photo] ?? images[0]}
        alt={`${title}, photo ${photo + 1} of ${images.length}`}
        className="aspect-[5/3] w-full rounded-lg bg-slate-200 object-cover"
      />
      {images.length > 1 ? (
        <ul className="mt-2 flex gap-2 overflow-x-auto">
          {images.map((src, i) => (
            <li key={src + i}>
              <a
                href={src}
                onClick={(event) => {
                  event.preventDefault();
                  setPhoto(i);
                }}
                aria-label={`Show photo ${i + 1}`}
              >
                <img src={src} alt="" className="h-16 w-24 rounded object-cover" />
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
