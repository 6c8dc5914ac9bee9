// Who may reach each route file. The authorization matrix test reads app/routes and fails on any
// route missing here, so a new route cannot land without saying who may use it.
export type Access =
  | "public" // anyone, signed in or not
  | "user" // signed-in people (visitors: a sign-in redirect for pages, 401 for calls)
  | "admin"; // admins only (others: 403)

export type Persona =
  "visitor" | "unverified" | "bidder" | "pendingAffiliate" | "approvedAffiliate" | "admin";

export type RouteAccess = {
  /** A concrete URL for the route (dynamic segments filled with ids that do not exist). */
  path: string;
  access: Access;
  /** Per-persona status for GET where it differs from what `access` implies. */
  get?: Partial<Record<Persona, number | number[]>>;
  /** The method its action answers (default POST). */
  method?: "POST" | "PUT" | "DELETE";
  /** What a cross-origin request gets, where not 403 (a signed capability URL, say). */
  crossOrigin?: number[];
  /** Per-persona status for an empty same-origin POST where it differs. */
  post?: Partial<Record<Persona, number | number[]>>;
};

/** The same answer for every kind of person (a POST-only call answering GET, say). */
function everyone(status: number | number[]): Partial<Record<Persona, number | number[]>> {
  return {
    visitor: status,
    unverified: status,
    bidder: status,
    pendingAffiliate: status,
    approvedAffiliate: status,
    admin: status,
  };
}

const NO_SUCH_UUID = "00000000-0000-4000-8000-000000000000";

export const ROUTE_ACCESS: Record<string, RouteAccess> = {
  "$.tsx": {
    path: "/no-such-page",
    access: "public",
    get: {
      visitor: 404,
      unverified: 404,
      bidder: 404,
      pendingAffiliate: 404,
      approvedAffiliate: 404,
      admin: 404,
    },
  },
  "_index.tsx": { path: "/", access: "public" },
  "healthz.ts": { path: "/healthz", access: "public" },
  "api.login.tsx": { path: "/api/login", access: "public" },
  "register.tsx": { path: "/register", access: "public" },
  "api.callback.tsx": {
    path: "/api/callback",
    access: "public",
    get: {
      visitor: 400,
      unverified: 400,
      bidder: 400,
      pendingAffiliate: 400,
      approvedAffiliate: 400,
      admin: 400,
    },
  },
  "api.logout.ts": { path: "/api/logout", access: "public" },
  "api.auth.user.ts": { path: "/api/auth/user", access: "user" },
  "admin._index.tsx": { path: "/admin", access: "admin" },
  "admin.early-access[.]csv.ts": { path: "/admin/early-access.csv", access: "admin" },
  "admin.users.$id.tsx": {
    path: `/admin/users/${NO_SUCH_UUID}`,
    access: "admin",
    get: { admin: 404 },
    post: { admin: [400, 404] },
  },
  "api.admin.audit.ts": { path: "/api/admin/audit", access: "admin" },
  "api.admin.prelaunch-signups.ts": { path: "/api/admin/prelaunch-signups", access: "admin" },
  "api.admin.settings.ts": {
    path: "/api/admin/settings",
    access: "admin",
    post: { admin: [400, 415] },
  },
  "api.admin.stats.ts": { path: "/api/admin/stats", access: "admin" },
  "api.admin.users.$id.ts": {
    path: `/api/admin/users/${NO_SUCH_UUID}`,
    access: "admin",
    post: { admin: [400, 404, 415] },
  },
  "api.admin.users.ts": { path: "/api/admin/users", access: "admin" },
  // Deposits and payments
  "deposit.tsx": {
    path: "/deposit",
    access: "user",
    post: {
      unverified: 400,
      bidder: 400,
      pendingAffiliate: 400,
      approvedAffiliate: 400,
      admin: 400,
    },
  },
  "deposit_.return.ts": { path: "/deposit/return", access: "user" },
  "deposit_.cancel.ts": { path: "/deposit/cancel", access: "user" },
  "payments.test-checkout.tsx": { path: "/payments/test-checkout", access: "public" },
  "paypal.setup.ts": { path: "/paypal/setup", access: "user" },
  "paypal.order.ts": { path: "/paypal/order", access: "user" },
  "paypal.order.$id.capture.ts": { path: "/paypal/order/NO-SUCH-ORDER/capture", access: "user" },
  "api.confirm-deposit.ts": { path: "/api/confirm-deposit", access: "user" },
  // Identity verification and storage
  "kyc-verification.tsx": { path: "/kyc-verification", access: "user" },
  "api.objects.upload.ts": { path: "/api/objects/upload", access: "user", get: everyone(405) },
  "api.kyc.document-url.ts": {
    path: "/api/kyc/document-url",
    access: "user",
    method: "PUT",
    get: everyone(405),
  },
  "api.kyc.documents.ts": { path: "/api/kyc/documents", access: "user" },
  "objects.$.ts": { path: "/objects/uploads/no-such-object", access: "user" },
  // Signed URLs only: without a valid signature everyone is refused.
  "storage.$.ts": {
    path: "/storage/no-such-key",
    access: "public",
    method: "PUT",
    get: everyone(403),
    post: everyone([400, 403]),
    crossOrigin: [400, 403],
  },
  "admin_.kyc.tsx": { path: "/admin/kyc", access: "admin" },
  "admin_.kyc.review.ts": { path: "/admin/kyc/review", access: "admin", get: everyone(404) },
  "api.admin.kyc.pending.ts": { path: "/api/admin/kyc/pending", access: "admin" },
  "api.admin.kyc.$id.approve.ts": {
    path: `/api/admin/kyc/${NO_SUCH_UUID}/approve`,
    access: "admin",
    get: everyone(405),
  },
  "api.admin.kyc.$id.reject.ts": {
    path: `/api/admin/kyc/${NO_SUCH_UUID}/reject`,
    access: "admin",
    get: everyone(405),
  },
  // Community marketplace
  "community-vehicles.tsx": {
    path: "/community-vehicles",
    access: "public",
    post: { visitor: [302, 401] },
  },
  "post-vehicle.tsx": { path: "/post-vehicle", access: "user" },
  "vehicle.$id.tsx": {
    path: "/vehicle/999999999",
    access: "public",
    get: {
      visitor: 404,
      unverified: 404,
      bidder: 404,
      pendingAffiliate: 404,
      approvedAffiliate: 404,
      admin: 404,
    },
    post: { visitor: [302, 401] },
  },
  "api.vehicles.ts": { path: "/api/vehicles", access: "public", post: { visitor: 401 } },
  "api.user.vehicle-stats.ts": { path: "/api/user/vehicle-stats", access: "user" },
  "api.vin.$vin.ts": { path: "/api/vin/1HGCV1F33KA123456", access: "user" },
  // Auctions and bidding
  "auctions._index.tsx": { path: "/auctions", access: "user" },
  "auctions.$lotId_.comparables.tsx": {
    path: "/auctions/999999999/comparables",
    access: "user",
    get: {
      unverified: 404,
      bidder: 404,
      pendingAffiliate: 404,
      approvedAffiliate: 404,
      admin: 404,
    },
  },
  "auctions.$lotId_.vin.tsx": {
    path: "/auctions/999999999/vin",
    access: "user",
    get: {
      unverified: 404,
      bidder: 404,
      pendingAffiliate: 404,
      approvedAffiliate: 404,
      admin: 404,
    },
  },
  "auctions.$lotId.tsx": {
    path: "/auctions/999999999",
    access: "user",
    get: {
      unverified: 404,
      bidder: 404,
      pendingAffiliate: 404,
      approvedAffiliate: 404,
      admin: 404,
    },
    post: {
      unverified: [400, 404],
      bidder: [400, 404],
      pendingAffiliate: [400, 404],
      approvedAffiliate: [400, 404],
      admin: [400, 404],
    },
  },
  "api.auctions.ts": { path: "/api/auctions", access: "user" },
  "api.fees.ts": { path: "/api/fees", access: "public" },
  "api.bids.ts": { path: "/api/bids", access: "user", get: everyone(405) },
  "account.time-zone.tsx": {
    path: "/account/time-zone",
    access: "user",
    post: { ...everyone(400), visitor: [302, 401] },
  },
  // E-mail preferences (docs/decisions/2754): an empty post is an incomplete form
  "account._index.tsx": {
    path: "/account",
    access: "user",
    post: { ...everyone(400), visitor: [302, 401] },
  },
  // Live streams (docs/decisions/1801): ids that do not exist (a real one would stay open)
  "live.lots.$lotId.ts": {
    path: "/live/lots/999999999",
    access: "user",
    get: { ...everyone(404), visitor: [302, 401] },
  },
  // The lot page's refetch after a live event (docs/decisions/2752)
  "live.lots.$lotId_.state.ts": {
    path: "/live/lots/999999999/state",
    access: "user",
    get: { ...everyone(404), visitor: [302, 401] },
  },
  "live.auctions.ts": {
    path: "/live/auctions?lots=999999999",
    access: "user",
    get: { ...everyone(204), visitor: [302, 401] },
  },
  "notifications._index.tsx": { path: "/notifications", access: "user" },
  "favorites.tsx": { path: "/favorites", access: "user" },
  // Messages: only the thread's two people; anyone else gets a 404 (no hint it exists).
  "messages._index.tsx": { path: "/messages", access: "user" },
  "messages.new.tsx": {
    path: "/messages/new?listing=999999999",
    access: "user",
    get: {
      unverified: 404,
      bidder: 404,
      pendingAffiliate: 404,
      approvedAffiliate: 404,
      admin: 404,
    },
    post: {
      unverified: [400, 404],
      bidder: [400, 404],
      pendingAffiliate: [400, 404],
      approvedAffiliate: [400, 404],
      admin: [400, 404],
    },
  },
  "messages.$threadId.tsx": {
    path: "/messages/999999999",
    access: "user",
    get: {
      unverified: 404,
      bidder: 404,
      pendingAffiliate: 404,
      approvedAffiliate: 404,
      admin: 404,
    },
    post: {
      unverified: 404,
      bidder: 404,
      pendingAffiliate: 404,
      approvedAffiliate: 404,
      admin: 404,
    },
  },
  "admin_.message-reports.tsx": {
    path: "/admin/message-reports",
    access: "admin",
    post: { admin: 400 },
  },
  // Buyer tools: saved searches (an empty post names no search: 400)
  "saved-searches.tsx": {
    path: "/saved-searches",
    access: "user",
    post: {
      unverified: 400,
      bidder: 400,
      pendingAffiliate: 400,
      approvedAffiliate: 400,
      admin: 400,
    },
  },
  // Shell
  "api.prelaunch-signup.ts": {
    path: "/api/prelaunch-signup",
    access: "public",
  },
  // Mail: a signed link, no sign-in; a made-up or tampered token is refused for everyone.
  "unsubscribe.$token.tsx": {
    path: "/unsubscribe/not-a-valid-token",
    access: "public",
    get: everyone(400),
    post: everyone(400),
    crossOrigin: [400],
  },
  "api.beta-banner.ts": { path: "/api/beta-banner", access: "public" },
  "api.onboarding.ts": { path: "/api/onboarding", access: "public" },
  // Memberships
  "membership.tsx": { path: "/membership", access: "user" },
  "membership_.return.ts": { path: "/membership/return", access: "user" },
  "membership_.cancel.ts": { path: "/membership/cancel", access: "user" },
  "api.user.membership.ts": { path: "/api/user/membership", access: "user" },
  "api.membership.plans.ts": { path: "/api/membership/plans", access: "public" },
  "api.campaigns.active.ts": { path: "/api/campaigns/active", access: "public" },
  "api.membership.subscribe.ts": {
    path: "/api/membership/subscribe",
    access: "user",
    get: everyone(405),
  },
  "api.membership.start-trial.ts": {
    path: "/api/membership/start-trial",
    access: "user",
    get: everyone(405),
  },
  // Community photos (public: listings are public)
  "listing-photos.$id.ts": {
    path: "/listing-photos/999999999",
    access: "public",
    get: everyone([400, 404]),
  },
  // Lot pictures stored from the feed (public, like the drawings that stand in for them)
  "lot-pictures.$id.ts": {
    path: "/lot-pictures/999999999",
    access: "public",
    get: everyone(404),
  },
  // Vehicles: drawn pictures (public, like the listings they illustrate) and sold results
  "vehicle-art.$file.ts": { path: "/vehicle-art/sedan-red.svg", access: "public" },
  "auctions.results.tsx": { path: "/auctions/results", access: "user" },
  // Affiliates and service orders
  "affiliate-registration.tsx": { path: "/affiliate-registration", access: "user" },
  "api.affiliates.ts": { path: "/api/affiliates", access: "user" },
  "api.affiliates.me.ts": { path: "/api/affiliates/me", access: "user" },
  "api.affiliates.document-url.ts": {
    path: "/api/affiliates/document-url",
    access: "user",
    method: "PUT",
    get: everyone(405),
  },
  "api.affiliates.service-orders.ts": {
    path: "/api/affiliates/service-orders",
    access: "user",
    get: {
      unverified: 403,
      bidder: 403,
      pendingAffiliate: 403,

      admin: 403,
    },
  },
  "service-orders._index.tsx": { path: "/service-orders", access: "user" },
  "service-orders.$id.tsx": {
    path: "/service-orders/999999999",
    access: "user",
    get: {
      unverified: 404,
      bidder: 404,
      pendingAffiliate: 404,
      approvedAffiliate: 404,
      admin: 404,
    },
  },
  // only the carrier that claimed the job reads its gate pass; anyone else: not found
  "service-orders.$id_.gate-pass.tsx": {
    path: "/service-orders/999999999/gate-pass",
    access: "user",
    get: {
      unverified: 404,
      bidder: 404,
      pendingAffiliate: 404,
      approvedAffiliate: 404,
      admin: 404,
    },
  },
  "service-orders.request.tsx": { path: "/service-orders/request", access: "user" },
  "service-orders.earnings.tsx": { path: "/service-orders/earnings", access: "user" },
  "service-orders.payment.return.ts": { path: "/service-orders/payment/return", access: "user" },
  "service-orders.payment.cancel.ts": { path: "/service-orders/payment/cancel", access: "user" },
  "api.service-orders.$id.pay.ts": {
    path: "/api/service-orders/999999999/pay",
    access: "user",
    get: everyone(405),
    // an empty body is refused before anything is looked up; a real one for no order is 404
    post: {
      unverified: [400, 404, 415],
      bidder: [400, 404, 415],
      pendingAffiliate: [400, 404, 415],
      approvedAffiliate: [400, 404, 415],
      admin: [400, 404, 415],
    },
  },
  "api.service-orders.ts": { path: "/api/service-orders", access: "user" },
  "api.service-orders.$id.claim.ts": {
    path: "/api/service-orders/999999999/claim",
    access: "user",
    get: everyone(405),
    post: {
      unverified: 403,
      bidder: 403,
      pendingAffiliate: 403,
      admin: 403,
      approvedAffiliate: [400, 404, 409],
    },
  },
  "api.service-orders.$id.start.ts": {
    path: "/api/service-orders/999999999/start",
    access: "user",
    get: everyone(405),
    post: {
      unverified: [403, 404],
      bidder: [403, 404],
      pendingAffiliate: [403, 404],
      admin: [403, 404],
      approvedAffiliate: 404,
    },
  },
  "api.service-orders.$id.complete.ts": {
    path: "/api/service-orders/999999999/complete",
    access: "user",
    get: everyone(405),
    post: {
      unverified: [403, 404],
      bidder: [403, 404],
      pendingAffiliate: [403, 404],
      admin: [403, 404],
      approvedAffiliate: 404,
    },
  },
  "admin_.affiliates.tsx": { path: "/admin/affiliates", access: "admin" },
  "admin_.service-orders.new.tsx": { path: "/admin/service-orders/new", access: "admin" },
  "api.admin.affiliates.ts": { path: "/api/admin/affiliates", access: "admin" },
  "api.admin.affiliates.$id.approve.ts": {
    path: `/api/admin/affiliates/${NO_SUCH_UUID}/approve`,
    access: "admin",
    get: everyone(405),
  },
  "api.admin.affiliates.$id.reject.ts": {
    path: `/api/admin/affiliates/${NO_SUCH_UUID}/reject`,
    access: "admin",
    get: everyone(405),
  },
  "api.admin.service-orders.ts": {
    path: "/api/admin/service-orders",
    access: "admin",
    get: everyone(405),
  },
  // After the hammer: my auctions, purchases, paying, release
  "my-auctions.tsx": { path: "/my-auctions", access: "user" },
  "purchases.$id.tsx": {
    path: "/purchases/999999999",
    access: "user",
    get: {
      unverified: 404,
      bidder: 404,
      pendingAffiliate: 404,
      approvedAffiliate: 404,
      admin: 404,
    },
    // someone else's (or no) purchase is not found before its form is read (record 3202)
    post: {
      unverified: 404,
      bidder: 404,
      pendingAffiliate: 404,
      approvedAffiliate: 404,
      admin: 404,
    },
  },
  "purchases.$id_.release.tsx": {
    path: "/purchases/999999999/release",
    access: "user",
    get: {
      unverified: 404,
      bidder: 404,
      pendingAffiliate: 404,
      approvedAffiliate: 404,
      admin: 404,
    },
  },
  "purchases.return.ts": { path: "/purchases/return", access: "user" },
  "purchases.cancel.ts": { path: "/purchases/cancel", access: "user" },
  "admin_.purchases.tsx": {
    path: "/admin/purchases",
    access: "admin",
    post: { admin: 400 },
  },
  "admin_.fees.tsx": { path: "/admin/fees", access: "admin", post: { admin: 400 } },
  "terms.tsx": { path: "/terms", access: "public" },
  "privacy.tsx": { path: "/privacy", access: "public" },
  "contact.tsx": { path: "/contact", access: "public" },
  "admin_.contact.tsx": { path: "/admin/contact", access: "admin" },
  "admin_.refunds.tsx": { path: "/admin/refunds", access: "admin", post: { admin: 400 } },
  "admin_.jobs.tsx": { path: "/admin/jobs", access: "admin", post: { admin: 400 } },
  "admin_.exchange-rates.tsx": {
    path: "/admin/exchange-rates",
    access: "admin",
    post: { admin: 400 },
  },
};
