// Memberships: plans, trial campaigns, the user's membership, starting a trial and cancelling
// (paying for a period is ./billing.server; the tables are docs/decisions/0601). A membership
// counts while now < current_period_end; every change happens under the user's row lock, the same
// lock the listing allowance is checked under.
import { Op, QueryTypes, UniqueConstraintError, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { Campaign, Membership, MembershipPlan, MembershipTrial } from "~/models/membership.server";
import {
  addDays,
  type BillingInterval,
  type CampaignType,
  type MembershipStatus,
} from "~/services/memberships/rules";
import { UserError } from "~/utils/user-error";

/** A refusal the user caused: a 4xx with a message fit to show. */
export class MembershipError extends UserError {
  constructor(status: number, message: string) {
    super(message, { status });
  }
}

export type PlanView = {
  id: string;
  name: string;
  description: string;
  price: string;
  billingInterval: BillingInterval;
  /** null: unlimited. */
  vehicleLimit: number | null;
  featuredListings: number;
  prioritySupport: boolean;
  advancedBuyerTools: boolean;
  sellerAnalytics: boolean;
  /** The free tier (price 0): nobody subscribes to it; it is what a non-member has. */
  isFree: boolean;
  /** The one plan with the "Most Popular" ribbon. */
  mostPopular: boolean;
};

export type CampaignView = {
  id: string;
  type: CampaignType;
  active: boolean;
  name: string;
  description: string;
  trialDays: number | null;
  endDate: string;
};

export type UserMembershipView = {
  hasActiveMembership: boolean;
  planId: string | null;
  planName: string | null;
  status: MembershipStatus | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  vehicleLimit: number | null;
  hasUsedTrial: boolean;
  /**
   * When the free days end: the trial's end while trialing, and also after subscribing during a
   * trial, whose paid period starts then (docs/decisions/2851). Null otherwise.
   */
  trialEndsAt: string | null;
};

export type ActiveMembership = {
  id: string;
  planId: string;
  planName: string;
  status: MembershipStatus;
  /** A paid period bought during a trial starts when the trial ends: later than now. */
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  /** The plan's cap on ACTIVE listings; null is unlimited. */
  vehicleLimit: number | null;
};

const isFree = (plan: MembershipPlan) => Number(plan.price) === 0;

function toPlanView(plan: MembershipPlan): PlanView {
  return {
    id: String(plan.id),
    name: plan.name,
    description: plan.description,
    price: plan.price,
    billingInterval: plan.billingInterval,
    vehicleLimit: plan.vehicleLimit,
    featuredListings: plan.featuredListings,
    prioritySupport: plan.prioritySupport,
    advancedBuyerTools: plan.advancedBuyerTools,
    sellerAnalytics: plan.sellerAnalytics,
    isFree: isFree(plan),
    mostPopular: plan.mostPopular,
  };
}

function toCampaignView(campaign: Campaign): CampaignView {
  return {
    id: String(campaign.id),
    type: campaign.type,
    active: campaign.active,
    name: campaign.name,
    description: campaign.description,
    trialDays: campaign.trialDays,
    endDate: campaign.endDate.toISOString(),
  };
}

/** Plans on offer, cheapest tier first. */
export async function listPlans(): Promise<PlanView[]> {
  const plans = await MembershipPlan.findAll({
    where: { active: true },
    order: [
      ["sortOrder", "ASC"],
      ["id", "ASC"],
    ],
  });
  return plans.map(toPlanView);
}

const runningCampaignWhere = (now: Date) => ({
  active: true,
  startsAt: { [Op.lte]: now },
  endDate: { [Op.gt]: now },
});

/** Campaigns running now: the active flag set and the end date still ahead. */
export async function listActiveCampaigns(now = new Date()): Promise<CampaignView[]> {
  const campaigns = await Campaign.findAll({
    where: runningCampaignWhere(now),
    order: [
      ["endDate", "ASC"],
      ["id", "ASC"],
    ],
  });
  return campaigns.map(toCampaignView);
}

/**
 * The user's membership that counts now (trialing or active, period end still ahead) with its
 * plan's vehicle limit, or null. Pass the transaction that holds the user's row lock.
 */
export async function activeMembership(
  userId: string,
  transaction?: Transaction,
  now = new Date(),
): Promise<ActiveMembership | null> {
  const rows = await sequelize.query<{
    id: string;
    plan_id: string;
    plan_name: string;
    status: MembershipStatus;
    current_period_start: Date;
    current_period_end: Date;
    cancel_at_period_end: boolean;
    vehicle_limit: number | null;
  }>(
    `SELECT m.id, m.plan_id, p.name AS plan_name, m.status, m.current_period_start,
            m.current_period_end,
            m.cancel_at_period_end, p.vehicle_limit
       FROM memberships m JOIN membership_plans p ON p.id = m.plan_id
      WHERE m.user_id = $1 AND m.status IN ('trialing', 'active') AND m.current_period_end > $2`,
    { bind: [userId, now], type: QueryTypes.SELECT, transaction },
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: String(row.id),
    planId: String(row.plan_id),
    planName: row.plan_name,
    status: row.status,
    currentPeriodStart: new Date(row.current_period_start),
    currentPeriodEnd: new Date(row.current_period_end),
    cancelAtPeriodEnd: row.cancel_at_period_end,
    vehicleLimit: row.vehicle_limit,
  };
}

export async function hasUsedTrial(userId: string, transaction?: Transaction) {
  return (await MembershipTrial.count({ where: { userId }, transaction })) > 0;
}

/** What /membership and GET /api/user/membership show: the membership that counts now, whether
 * it ends instead of renewing, and whether the user has had their one free trial. */
export async function userMembership(
  userId: string,
  now = new Date(),
): Promise<UserMembershipView> {
  const [membership, usedTrial] = await Promise.all([
    activeMembership(userId, undefined, now),
    hasUsedTrial(userId),
  ]);
  return {
    hasActiveMembership: membership !== null,
    planId: membership?.planId ?? null,
    planName: membership?.planName ?? null,
    status: membership?.status ?? null,
    currentPeriodEnd: membership?.currentPeriodEnd.toISOString() ?? null,
    cancelAtPeriodEnd: membership?.cancelAtPeriodEnd ?? false,
    vehicleLimit: membership?.vehicleLimit ?? null,
    hasUsedTrial: usedTrial,
    trialEndsAt: membership ? (freeDaysEnd(membership, now)?.toISOString() ?? null) : null,
  };
}

/**
 * When the member's free days end, if some are left: a trial's end, or the start of a paid period
 * bought during a trial (docs/decisions/2851). Null when nothing is free any more.
 */
export function freeDaysEnd(
  membership: Pick<ActiveMembership, "status" | "currentPeriodStart" | "currentPeriodEnd">,
  now: Date,
): Date | null {
  if (membership.status === "trialing") return membership.currentPeriodEnd;
  return membership.currentPeriodStart > now ? membership.currentPeriodStart : null;
}

export async function lockUser(userId: string, transaction: Transaction) {
  const rows = await sequelize.query("SELECT id FROM users WHERE id = $1 FOR UPDATE", {
    bind: [userId],
    type: QueryTypes.SELECT,
    transaction,
  });
  if (rows.length === 0) throw new MembershipError(404, "No such user.");
}

export async function paidPlan(planId: string, transaction?: Transaction) {
  const plan = await MembershipPlan.findOne({ where: { id: planId, active: true }, transaction });
  if (!plan) throw new MembershipError(404, "That plan is not available.");
  if (isFree(plan)) throw new MembershipError(400, "The free tier needs no subscription.");
  return plan;
}

export async function runningCampaign(campaignId: string, now: Date, transaction?: Transaction) {
  const campaign = await Campaign.findOne({
    where: { id: campaignId, ...runningCampaignWhere(now) },
    transaction,
  });
  if (!campaign) throw new MembershipError(400, "This offer is not available any more.");
  return campaign;
}

/** Writes the user's one membership row (the caller holds the user's row lock). */
export async function putMembership(
  userId: string,
  values: Pick<
    Membership,
    "planId" | "campaignId" | "status" | "currentPeriodStart" | "currentPeriodEnd"
  >,
  transaction: Transaction,
) {
  const existing = await Membership.findOne({ where: { userId }, transaction });
  const fields = { ...values, cancelAtPeriodEnd: false, cancelledAt: null };
  if (existing) return existing.update(fields, { transaction });
  return Membership.create({ userId, ...fields }, { transaction });
}

/**
 * Starts a free trial of a paid plan: only through a running membership_trial campaign, once per
 * user ever (the user's row lock serialises a double click; the primary key is the last word).
 */
export async function startTrial(
  userId: string,
  input: { planId: string; campaignId: string },
  now = new Date(),
): Promise<ActiveMembership> {
  const plan = await paidPlan(input.planId);
  const campaign = await runningCampaign(input.campaignId, now);
  if (campaign.type !== "membership_trial" || !campaign.trialDays) {
    throw new MembershipError(400, "This offer has no free trial.");
  }
  try {
    await sequelize.transaction(async (transaction) => {
      await lockUser(userId, transaction);
      if (await hasUsedTrial(userId, transaction)) {
        throw new MembershipError(409, "You have already used your free trial.");
      }
      const current = await activeMembership(userId, transaction, now);
      if (current?.status === "active") {
        throw new MembershipError(409, "You already have a paid membership.");
      }
      const endsAt = addDays(now, campaign.trialDays!);
      await MembershipTrial.create(
        { userId, campaignId: campaign.id, planId: plan.id, startedAt: now, endsAt },
        { transaction },
      );
      await putMembership(
        userId,
        {
          planId: plan.id,
          campaignId: campaign.id,
          status: "trialing",
          currentPeriodStart: now,
          currentPeriodEnd: endsAt,
        },
        transaction,
      );
    });
  } catch (error) {
    if (error instanceof UniqueConstraintError) {
      throw new MembershipError(409, "You have already used your free trial.");
    }
    throw error;
  }
  return (await activeMembership(userId, undefined, now))!;
}

/** Ends the membership at its period end instead of renewing; it counts until then. */
export async function cancelMembership(userId: string, now = new Date()) {
  return sequelize.transaction(async (transaction) => {
    await lockUser(userId, transaction);
    const current = await activeMembership(userId, transaction, now);
    if (!current) throw new MembershipError(404, "You have no membership to cancel.");
    if (current.cancelAtPeriodEnd) return current;
    await Membership.update(
      { cancelAtPeriodEnd: true, cancelledAt: now },
      { where: { id: current.id }, transaction },
    );
    return { ...current, cancelAtPeriodEnd: true };
  });
}
