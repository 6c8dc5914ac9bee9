import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Listing, ListingPhoto } from "~/models/listing.server";
import { action as postVehicleAction } from "~/routes/post-vehicle";
import { action as vehicleAction } from "~/routes/vehicle.$id/route";
import { loader as photoLoader } from "~/routes/listing-photos.$id";
import { setStorageForTests, storage } from "~/platform/storage/index.server";
import { createTestUser, requestAs } from "../support/auth";
import { startFilesystemStorage, type TestStorage } from "../support/storage";

let store: TestStorage;
beforeAll(async () => {
  store = await startFilesystemStorage();
  setStorageForTests(store.storage);
});
afterAll(async () => {
  setStorageForTests(undefined);
  await store.stop();
});

const FIELDS = {
  title: "Photo test Jeep",
  make: "Jeep",
  model: "Wrangler",
  year: "2017",
  price: "24000",
  condition: "good",
  city: "Denver",
};

async function image(format: "png" | "jpeg", width = 2400, height = 1800) {
  const data = await sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } },
  })
    [format]()
    .toBuffer();
  return new File([new Uint8Array(data)], `car.${format === "png" ? "png" : "jpg"}`, {
    type: `image/${format}`,
  });
}

function multipart(fields: Record<string, string>, files: File[]) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const file of files) form.append("photos", file);
  return form;
}

const context = {};

async function photoResponse(url: string) {
  const parsed = new URL(url, "http://localhost:3000");
  const id = parsed.pathname.split("/").pop()!;
  return (await photoLoader({
    request: new Request(parsed),
    params: { id },
    context,
  })) as Response;
}

describe("listing photos", () => {
  it("stores JPG and PNG photos resized, with thumbnails, in order", async () => {
    const user = await createTestUser();
    const body = multipart(FIELDS, [await image("png"), await image("jpeg", 800, 600)]);
    const response = (await postVehicleAction({
      request: await requestAs(user, "/post-vehicle", { body }),
      params: {},
      context,
    })) as Response;
    expect(response.status).toBe(302);
    const id = response.headers.get("location")!.split("/").pop()!;
    const photos = await ListingPhoto.findAll({
      where: { listingId: id },
      order: [["position", "ASC"]],
    });
    expect(photos.map((p) => p.position)).toEqual([0, 1]);
    expect(photos[0]).toMatchObject({ width: 1600, height: 1200, contentType: "image/jpeg" });
    expect(photos[1]).toMatchObject({ width: 800, height: 600 });

    const full = await photoResponse(photos[0].url);
    expect(full.status).toBe(200);
    expect(full.headers.get("content-type")).toBe("image/jpeg");
    const fullMeta = await sharp(Buffer.from(await full.arrayBuffer())).metadata();
    expect([fullMeta.format, fullMeta.width]).toEqual(["jpeg", 1600]);
    const thumb = await photoResponse(photos[0].thumbnailUrl);
    const thumbMeta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect([thumbMeta.width, thumbMeta.height]).toEqual([480, 360]);
  });

  it("refuses a file that is not really a JPG or PNG, and writes nothing", async () => {
    const user = await createTestUser();
    const fake = new File([new TextEncoder().encode("<svg onload=alert(1)>")], "car.jpg", {
      type: "image/jpeg",
    });
    const result = (await postVehicleAction({
      request: await requestAs(user, "/post-vehicle", { body: multipart(FIELDS, [fake]) }),
      params: {},
      context,
    })) as unknown as { data: { error: Record<string, string[]> }; init: { status: number } };
    expect(result.init.status).toBe(400);
    expect(result.data.error.photos).toEqual(["Photos must be JPG or PNG images."]);
    expect(await Listing.count({ where: { userId: user.id } })).toBe(0);
  });

  it("refuses more than 10 photos", async () => {
    const user = await createTestUser();
    const small = await image("png", 40, 30);
    const result = (await postVehicleAction({
      request: await requestAs(user, "/post-vehicle", {
        body: multipart(
          FIELDS,
          Array.from({ length: 11 }, () => small),
        ),
      }),
      params: {},
      context,
    })) as unknown as { data: { error: Record<string, string[]> }; init: { status: number } };
    expect(result.init.status).toBe(400);
    expect(result.data.error.photos).toEqual(["Add at most 10 photos."]);
    expect(await Listing.count({ where: { userId: user.id } })).toBe(0);
  });

  it("refuses a form of more parts than any form has (413) before reading the rest, and writes nothing", async () => {
    const user = await createTestUser();
    const post = (parts: number) => {
      const form = multipart(FIELDS, []);
      for (let i = Object.keys(FIELDS).length; i < parts; i += 1) form.append("x", "");
      return requestAs(user, "/post-vehicle", { body: form });
    };
    const answer = await postVehicleAction({ request: await post(201), params: {}, context }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(413);
    expect(await (answer as Response).text()).toBe("The form has too many parts");
    expect(await Listing.count({ where: { userId: user.id } })).toBe(0);

    // at the cap, the same form is a listing
    const fits = (await postVehicleAction({
      request: await post(200),
      params: {},
      context,
    })) as Response;
    expect(fits.status).toBe(302);
    expect(await Listing.count({ where: { userId: user.id } })).toBe(1);
  });

  it("lets the owner remove a photo, and deleting the listing removes the files", async () => {
    const user = await createTestUser();
    const response = (await postVehicleAction({
      request: await requestAs(user, "/post-vehicle", {
        body: multipart(FIELDS, [await image("png", 400, 300), await image("jpeg", 400, 300)]),
      }),
      params: {},
      context,
    })) as Response;
    const id = response.headers.get("location")!.split("/").pop()!;
    const [first, second] = await ListingPhoto.findAll({
      where: { listingId: id },
      order: [["position", "ASC"]],
    });

    const edited = (await vehicleAction({
      request: await requestAs(user, `/vehicle/${id}`, {
        body: multipart({ ...FIELDS, intent: "update", removePhotos: first.id }, []),
      }),
      params: { id },
      context,
    })) as Response;
    expect(edited.status).toBe(302);
    const left = await ListingPhoto.findAll({ where: { listingId: id } });
    expect(left.map((p) => [p.id, p.position])).toEqual([[second.id, 0]]);
    expect(await storage().head(first.storageKey!)).toBeNull();

    const deleted = (await vehicleAction({
      request: await requestAs(user, `/vehicle/${id}`, { form: { intent: "delete" } }),
      params: { id },
      context,
    })) as Response;
    expect(deleted.status).toBe(302);
    expect(await storage().head(second.storageKey!)).toBeNull();
    expect((await photoResponse(second.url)).status).toBe(404);
  });

  it("shares the upload budget: the 21st multipart post in 10 minutes answers 429", async () => {
    const user = await createTestUser();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      try {
        const response = (await postVehicleAction({
          request: await requestAs(user, "/post-vehicle", { body: multipart(FIELDS, []) }),
          params: {},
          context,
        })) as Response;
        statuses.push(response.status);
      } catch (error) {
        statuses.push((error as Response).status);
      }
    }
    expect(statuses.slice(0, 20).every((status) => status === 302)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect(await Listing.count({ where: { userId: user.id } })).toBe(3);
  });

  it("does not let anyone else edit or delete a listing", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const response = (await postVehicleAction({
      request: await requestAs(owner, "/post-vehicle", { form: FIELDS }),
      params: {},
      context,
    })) as Response;
    const id = response.headers.get("location")!.split("/").pop()!;
    for (const intent of ["delete", "markSold"]) {
      await expect(
        vehicleAction({
          request: await requestAs(other, `/vehicle/${id}`, { form: { intent } }),
          params: { id },
          context,
        }),
      ).rejects.toMatchObject({ status: 404 });
    }
    await expect(
      vehicleAction({
        request: await requestAs(other, `/vehicle/${id}`, {
          form: { ...FIELDS, title: "Hijacked", intent: "update" },
        }),
        params: { id },
        context,
      }),
    ).rejects.toMatchObject({ status: 404 });
    expect(await Listing.findByPk(id)).toMatchObject({ status: "active", title: FIELDS.title });
  });
});
