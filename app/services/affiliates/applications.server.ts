import { recordAdminAction } from "~/services/admin/audit.server";
import { QueryTypes, type Transaction } from "sequelize";
import {
  AffiliateApplication,
  APPLICATION_STATUSES,
  type ApplicationStatus,
  type ServiceType,
} from "~/models/affiliate.server";
import { sequelize } from "~/models/db.server";
import { Upload } from "~/models/upload.server";
import { User } from "~/models/user.server";
import { notify } from "~/platform/notifications.server";
import { objectKeyFromPath } from "~/platform/uploads.server";
import { UserError } from "~/utils/user-error";
import { ALREADY_APPLIED, LICENCE_FAILED } from "./messages";
import { LICENCE_UPLOAD_PURPOSE } from "./rules";

/** An error a user can cause in the affiliate programme or a service order. */
export class AffiliateError extends UserError {
  constructor(status: number, message: string) {
    super(message, { status });
  }
}

export type ApplicationInput = {
  companyName: string;
  serviceTypes: string[];
  businessPhone: string;
  businessEmail: string;
  serviceAreas: string[];
  licenseDocumentUrl?: string;
};

export type PublicApplication = {
  id: string;
  companyName: string;
  serviceTypes: ServiceType[];
  businessPhone: string;
  businessEmail: string;
  serviceAreas: string[];
  licenseDocumentUrl: string | null;
  status: ApplicationStatus;
  approved: boolean;
  rejectionReason: string | null;
  createdAt: string;
  reviewedAt: string | null;
};

export function toPublicApplication(application: AffiliateApplication): PublicApplication {
  return {
    id: String(application.id),
    companyName: application.companyName,
    serviceTypes: application.serviceTypes,
    businessPhone: application.businessPhone,
    businessEmail: application.businessEmail,
    serviceAreas: application.serviceAreas,
    licenseDocumentUrl: application.licenseDocumentUrl,
    status: application.status,
    approved: application.status === "approved",
    rejectionReason: application.rejectionReason,
    createdAt: application.createdAt.toISOString(),
    reviewedAt: application.reviewedAt ? application.reviewedAt.toISOString() : null,
  };
}

/** A ?status= filter: one of the application statuses, or undefined for all of them. */
export function applicationStatusFrom(value: string | null): ApplicationStatus | undefined {
  return (APPLICATION_STATUSES as readonly string[]).includes(value ?? "")
    ? (value as ApplicationStatus)
    : undefined;
}

export async function getApplication(userId: string, transaction?: Transaction) {
  return AffiliateApplication.findOne({ where: { userId }, transaction });
}

export async function isApprovedAffiliate(userId: string) {
  const application = await getApplication(userId);
  return application?.status === "approved";
}

/**
 * Files the user's one application. A second one is refused (409) unless the first was
 * rejected: then it replaces the rejected one and goes back to review (still one row).
 */
export async function submitApplication(userId: string, input: ApplicationInput) {
  return sequelize.transaction(async (transaction) => {
    const rows = await sequelize.query<{ id: string }>(
      `INSERT INTO affiliate_applications
         (user_id, company_name, service_types, business_phone, business_email, service_areas,
          license_document_url)
       VALUES (:userId, :companyName, ARRAY[:serviceTypes]::text[], :businessPhone, :businessEmail,
          ARRAY[:serviceAreas]::text[], :licenseDocumentUrl)
       ON CONFLICT (user_id) DO UPDATE SET
         company_name = EXCLUDED.company_name, service_types = EXCLUDED.service_types,
         business_phone = EXCLUDED.business_phone, business_email = EXCLUDED.business_email,
         service_areas = EXCLUDED.service_areas,
         license_document_url = EXCLUDED.license_document_url,
         status = 'pending', reviewed_by = NULL, reviewed_at = NULL, rejection_reason = NULL,
         created_at = now(), updated_at = now()
       WHERE affiliate_applications.status = 'rejected'
       RETURNING id`,
      {
        replacements: {
          userId,
          companyName: input.companyName,
          serviceTypes: input.serviceTypes,
          businessPhone: input.businessPhone,
          businessEmail: input.businessEmail,
          serviceAreas: input.serviceAreas,
          licenseDocumentUrl: input.licenseDocumentUrl ?? null,
        },
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    if (rows.length === 0) throw new AffiliateError(409, ALREADY_APPLIED);
    if (input.licenseDocumentUrl)
      await attachLicence(userId, input.licenseDocumentUrl, transaction);
    await User.update({ accountType: "affiliate" }, { where: { id: userId }, transaction });
    return (await AffiliateApplication.findByPk(rows[0].id, { transaction }))!;
  });
}

/** The document must be the applicant's own checked upload (a path anyone could type is refused). */
async function attachLicence(userId: string, objectPath: string, transaction: Transaction) {
  const objectKey = objectKeyFromPath(objectPath);
  const upload = objectKey
    ? await Upload.findOne({
        where: {
          objectKey,
          userId,
          purpose: LICENCE_UPLOAD_PURPOSE,
          status: ["stored", "attached"],
        },
        lock: transaction.LOCK.UPDATE,
        transaction,
      })
    : null;
  if (!upload) throw new AffiliateError(400, LICENCE_FAILED);
  if (upload.status !== "attached") await upload.update({ status: "attached" }, { transaction });
}

export type ApplicationWithApplicant = AffiliateApplication & {
  applicant?: Pick<User, "id" | "email" | "firstName" | "lastName">;
  /** The admin who decided it; null while pending or if that account is gone. */
  reviewer?: Pick<User, "id" | "email" | "firstName" | "lastName"> | null;
};

/** For the admin's review list: pending first (oldest first), then recent decisions. */
export async function listApplications(status?: ApplicationStatus, limit = 100) {
  return (await AffiliateApplication.findAll({
    where: status ? { status } : {},
    include: [
      { model: User, as: "applicant", attributes: ["id", "email", "firstName", "lastName"] },
      { model: User, as: "reviewer", attributes: ["id", "email", "firstName", "lastName"] },
    ],
    order: status === "pending" ? [["createdAt", "ASC"]] : [["updatedAt", "DESC"]],
    limit,
  })) as ApplicationWithApplicant[];
}

/** An admin approves or rejects a pending application; the applicant is told. */
export async function reviewApplication(
  admin: Pick<User, "id" | "email">,
  applicationId: string,
  decision: { decision: "approve" } | { decision: "reject"; reason: string },
) {
  return sequelize.transaction(async (transaction) => {
    const application = await AffiliateApplication.findByPk(applicationId, {
      transaction,
      lock: transaction.LOCK.UPDATE,
    });
    if (!application) throw new AffiliateError(404, "Application not found");
    if (application.status !== "pending")
      throw new AffiliateError(409, `This application was already ${application.status}.`);
    const approved = decision.decision === "approve";
    await application.update(
      {
        status: approved ? "approved" : "rejected",
        reviewedBy: admin.id,
        reviewedAt: new Date(),
        rejectionReason: approved ? null : decision.reason,
      },
      { transaction },
    );
    await recordAdminAction(
      admin,
      approved ? "affiliate.approve" : "affiliate.reject",
      { type: "affiliate_application", id: application.id },
      {
        before: { status: "pending" },
        after: { status: application.status, ...(approved ? {} : { reason: decision.reason }) },
      },
      transaction,
    );
    await notify(
      application.userId,
      approved
        ? {
            kind: "affiliate_approved",
            title: "Application Approved!",
            body: "You are now an approved affiliate and can claim service orders.",
            link: "/service-orders",
          }
        : {
            kind: "affiliate_rejected",
            title: "Affiliate application not approved",
            body: decision.reason,
            link: "/affiliate-registration",
          },
      transaction,
    );
    return application;
  });
}
