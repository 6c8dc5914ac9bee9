// Arranges affiliates and service orders for integration tests.
import { AffiliateApplication, type ApplicationStatus } from "~/models/affiliate.server";
import type { User } from "~/models/user.server";
import {
  createOrderByAdmin,
  type AdminOrderInput,
} from "~/services/affiliates/service-orders.server";
import { createTestUser } from "./auth";

export async function createAffiliate(status: ApplicationStatus = "approved") {
  const user = await createTestUser({ accountType: "affiliate" });
  await AffiliateApplication.create({
    userId: user.id,
    companyName: `Carrier ${user.lastName}`,
    serviceTypes: ["shipping", "export"],
    businessPhone: "214-555-0100",
    businessEmail: user.email,
    serviceAreas: ["Texas"],
    licenseDocumentUrl: null,
    status,
    reviewedAt: status === "pending" ? null : new Date(),
    rejectionReason: status === "rejected" ? "Incomplete" : null,
  });
  return user;
}

export async function createAdmin() {
  return createTestUser({ role: "admin" });
}

export async function createTestOrder(admin: User, overrides: Partial<AdminOrderInput> = {}) {
  return createOrderByAdmin(admin.id, {
    serviceType: "shipping",
    vehicleLabel: "2019 Toyota Camry SE",
    vehicleType: "sedan",
    pickup: "Dallas, TX",
    delivery: "Houston, TX",
    ...overrides,
  });
}
