import { AffiliateApplication, ServiceOrder } from "../../app/models/affiliate.server";
import { User } from "../../app/models/user.server";
import { findCityByLabel } from "../../app/services/affiliates/us-cities";
import { roadMiles } from "../../app/services/affiliates/distance";
import { quotePayoutCents } from "../../app/services/affiliates/rules";
import { centsToDecimal } from "../../app/utils/money";
import type { SeedOptions } from "./index";

type SeedOrder = {
  vehicle: string;
  type: "sedan" | "suv" | "truck" | null;
  pickup: string;
  yard: string;
  delivery?: string;
  port?: string;
  country?: string;
  status?: "claimed" | "in_progress";
};

// Realistic routes from auction yards (the first two are the product's worked examples).
const ORDERS: SeedOrder[] = [
  {
    vehicle: "2019 Toyota Camry SE",
    type: "sedan",
    pickup: "Dallas, TX",
    yard: "Copart Dallas",
    delivery: "Houston, TX",
  },
  {
    vehicle: "2020 Ford F-150 XLT",
    type: "truck",
    pickup: "Phoenix, AZ",
    yard: "IAAI Phoenix",
    delivery: "Long Beach, CA",
  },
  {
    vehicle: "2018 Honda Accord Sport",
    type: "sedan",
    pickup: "Miami, FL",
    yard: "Copart Miami North",
    delivery: "New York, NY",
  },
  {
    vehicle: "2021 Chevrolet Tahoe LT",
    type: "suv",
    pickup: "Houston, TX",
    yard: "Copart Houston",
    port: "Houston, TX",
    country: "Nigeria",
  },
  {
    vehicle: "2017 Toyota RAV4 XLE",
    type: "suv",
    pickup: "Los Angeles, CA",
    yard: "IAAI Los Angeles",
    delivery: "Sacramento, CA",
  },
  {
    vehicle: "2016 Lexus RX 350",
    type: "suv",
    pickup: "Orlando, FL",
    yard: "Copart Orlando South",
    port: "Jacksonville, FL",
    country: "Ghana",
  },
  {
    vehicle: "2022 Ram 1500 Big Horn",
    type: "truck",
    pickup: "San Antonio, TX",
    yard: "Copart San Antonio",
    delivery: "Denver, CO",
  },
  {
    vehicle: "2019 Nissan Altima 2.5 S",
    type: "sedan",
    pickup: "Buffalo, NY",
    yard: "IAAI Buffalo",
    delivery: "Atlanta, GA",
  },
  {
    vehicle: "2015 Toyota Land Cruiser",
    type: "suv",
    pickup: "Newark, NJ",
    yard: "Copart Newark",
    port: "Newark, NJ",
    country: "United Arab Emirates",
  },
  {
    vehicle: "2020 Honda Civic EX",
    type: "sedan",
    pickup: "San Diego, CA",
    yard: "Copart San Diego",
    delivery: "Las Vegas, NV",
  },
  {
    vehicle: "2018 Chevrolet Silverado 1500",
    type: "truck",
    pickup: "Fort Worth, TX",
    yard: "IAAI Fort Worth",
    port: "Galveston, TX",
    country: "Guatemala",
  },
  {
    vehicle: "2021 Tesla Model 3",
    type: "sedan",
    pickup: "Tampa, FL",
    yard: "Copart Tampa South",
    delivery: "Charlotte, NC",
  },
  {
    vehicle: "2017 Jeep Grand Cherokee",
    type: "suv",
    pickup: "Austin, TX",
    yard: "Copart Austin",
    delivery: "Oklahoma City, OK",
    status: "claimed",
  },
  {
    vehicle: "2019 Hyundai Sonata SEL",
    type: "sedan",
    pickup: "Atlanta, GA",
    yard: "IAAI Atlanta",
    port: "Savannah, GA",
    country: "Dominican Republic",
    status: "claimed",
  },
  {
    vehicle: "2016 Ford Explorer XLT",
    type: "suv",
    pickup: "Chicago, IL",
    yard: "Copart Chicago North",
    delivery: "Detroit, MI",
    status: "in_progress",
  },
];

export async function seedAffiliates(_options: SeedOptions) {
  const shipper = await User.findOne({ where: { email: "shipper@bidyard.test" } });
  const applicant = await User.findOne({ where: { email: "applicant@bidyard.test" } });
  const admin = await User.findOne({ where: { email: "admin@bidyard.test" } });
  if (!shipper || !applicant) return;

  if (!(await AffiliateApplication.findOne({ where: { userId: shipper.id } }))) {
    await AffiliateApplication.create({
      userId: shipper.id,
      companyName: "Lone Star Auto Transport LLC",
      serviceTypes: ["shipping", "export"],
      businessPhone: "(214) 555-0142",
      businessEmail: "dispatch@lonestar-transport.test",
      serviceAreas: ["Texas", "Oklahoma", "Louisiana", "Port of Houston"],
      licenseDocumentUrl: null,
      status: "approved",
      reviewedBy: admin?.id ?? null,
      reviewedAt: new Date(),
    });
  }
  if (!(await AffiliateApplication.findOne({ where: { userId: applicant.id } }))) {
    await AffiliateApplication.create({
      userId: applicant.id,
      companyName: "Gulf Coast Vehicle Export",
      serviceTypes: ["export"],
      businessPhone: "(305) 555-0199",
      businessEmail: "applicant@bidyard.test",
      serviceAreas: ["Florida", "Georgia"],
      licenseDocumentUrl: null,
    });
  }

  for (const seed of ORDERS) {
    const pickup = findCityByLabel(seed.pickup)!;
    const exists = await ServiceOrder.findOne({
      where: { vehicleLabel: seed.vehicle, pickupCity: pickup.city, pickupState: pickup.state },
    });
    if (exists) continue;
    const target = findCityByLabel(seed.delivery ?? seed.port!)!;
    const miles = roadMiles(pickup, target);
    const serviceType = seed.delivery ? "shipping" : "export";
    const claimedAt = seed.status ? new Date(Date.now() - 2 * 24 * 3600 * 1000) : null;
    await ServiceOrder.create({
      serviceType,
      lotId: null,
      purchaseId: null,
      requestedBy: null,
      createdBy: admin?.id ?? null,
      vehicleLabel: seed.vehicle,
      vehicleType: seed.type,
      pickupCity: pickup.city,
      pickupState: pickup.state,
      pickupYard: seed.yard,
      deliveryCity: seed.delivery ? target.city : null,
      deliveryState: seed.delivery ? target.state : null,
      exportPort: seed.port ? target.city : null,
      exportPortState: seed.port ? target.state : null,
      destinationCountry: seed.country ?? null,
      distanceMiles: serviceType === "shipping" ? miles : null,
      payout: centsToDecimal(quotePayoutCents(serviceType, miles)),
      status: seed.status ?? "open",
      claimedBy: seed.status ? shipper.id : null,
      claimedAt,
      startedAt: seed.status === "in_progress" ? new Date(Date.now() - 24 * 3600 * 1000) : null,
      completedAt: null,
    });
  }
}
