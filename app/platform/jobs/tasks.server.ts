// What each kind of job does, and the schedules (docs/decisions/3561). A handler is an entry
// point of the service that owns the work; the queue gives it its retries, and each one runs in
// its own transactions (none is held across a call to another server).
import type { CronItem, JobHelpers, Task } from "graphile-worker";
import { now } from "~/platform/clock.server";
import { env } from "~/platform/env.server";
import { discardStaleUploads } from "~/platform/uploads.server";
import { pruneLotEvents } from "~/platform/live/prune.server";
import { sendQueuedMail } from "~/platform/mail/outbox.server";
import type { MailTransport } from "~/platform/mail/transport.server";
import { alertWatchedLotsEndingSoon, matchSavedSearches } from "~/services/alerts/matching.server";
import { closeEndedLots, closeLotIfEnded } from "~/services/auctions/closer.server";
import { keepDemoAuctionsRunning } from "~/services/auctions/demo.server";
import { fetchLotPicturesJob } from "~/services/auctions/lot-images.server";
import { mailOutbidNotices, pruneOutbidMarks } from "~/services/auctions/outbid-mail.server";
import { queueMissingRefundRetries, retryRefund } from "~/services/deposits/deposits.server";
import { sendMessageNotices } from "~/services/messages/messages.server";
import { noticeOverduePurchases, remindDuePurchases } from "~/services/purchases/reminders.server";
import { addJob, type JobKind } from "./queue.server";

/** How often the notices run (they were the old 15-second tick). */
export const FAST_REPEAT_MS = 15_000;

export type TaskOptions = {
  /** The mail server to send through; the setting's (SMTP_URL) when left out. */
  transport?: MailTransport | null;
  /** Pictures from private addresses (tests only). */
  allowPrivatePictures?: boolean;
};

type Handler = (payload: Record<string, unknown>, helpers: JobHelpers) => Promise<unknown>;

/**
 * A kind that runs again in FAST_REPEAT_MS after each run (one waiting job per kind, its key the
 * kind; the every-minute schedule below brings it back if it is ever lost).
 */
function repeating(kind: JobKind, work: () => Promise<unknown>): Handler {
  return async () => {
    try {
      return await work();
    } finally {
      await addJob(
        kind,
        {},
        {
          runAt: new Date(now().getTime() + FAST_REPEAT_MS),
          jobKey: kind,
          jobKeyMode: "preserve_run_at",
          maxAttempts: 1,
        },
      );
    }
  };
}

export function jobHandlers(options: TaskOptions = {}): Record<JobKind, Handler> {
  return {
    close_lot: async (payload) => {
      const lotId = String(payload.lotId);
      const result = await closeLotIfEnded(lotId);
      return { lotId, result };
    },
    sweep_closes: () => closeEndedLots(),
    send_mail: (payload, helpers) =>
      sendQueuedMail(String(payload.id), {
        attempt: helpers.job.attempts,
        maxAttempts: helpers.job.max_attempts,
        transport: options.transport,
      }),
    notices: repeating("notices", async () => ({
      matches: await matchSavedSearches(),
      endingSoon: await alertWatchedLotsEndingSoon(),
      outbid: await mailOutbidNotices(),
      messageNotices: await sendMessageNotices(),
    })),
    // queued by the bid that outbid someone (record 3568); the notices run is the safety net
    outbid_mail: () => mailOutbidNotices(),
    // one lot's pictures (record 3564): a failure that may pass throws, and the queue's backoff
    // runs it again; the last try leaves what is still pending failed
    fetch_lot_pictures: async (payload, helpers) => {
      // a job of the old repeating kind (no lot) has nothing to do
      if (payload.lotId === undefined) return null;
      return fetchLotPicturesJob(
        String(payload.lotId),
        { attempt: helpers.job.attempts, maxAttempts: helpers.job.max_attempts },
        options.allowPrivatePictures === undefined
          ? {}
          : { allowPrivate: options.allowPrivatePictures },
      );
    },
    // one refund (record 3564): the provider asked outside any transaction, the outcome written
    // only if the row is still pending; an unclear answer throws, for the queue's backoff
    retry_refund: (payload, helpers) =>
      retryRefund(String(payload.refundId), {
        attempt: helpers.job.attempts,
        maxAttempts: helpers.job.max_attempts,
      }),
    // the safety net: a pending refund without a job gets one
    sweep_refunds: () => queueMissingRefundRetries(),
    prunes: async () => ({
      uploads: await discardStaleUploads(),
      lotEvents: await pruneLotEvents(),
      outbidMarks: await pruneOutbidMarks(),
    }),
    reminders: async () => ({
      due: await remindDuePurchases(),
      overdue: await noticeOverduePurchases(),
    }),
    // development and staging: a demo lot ending every few minutes (docs/decisions/2755)
    demo_auctions: async () => (env().demoAuctions ? keepDemoAuctionsRunning() : []),
  };
}

/** The task list the worker runs: each handler as graphile-worker calls it. */
export function taskList(options: TaskOptions = {}): Record<string, Task> {
  const handlers = jobHandlers(options);
  return Object.fromEntries(
    Object.entries(handlers).map(([kind, handler]) => [
      kind,
      (async (payload: unknown, helpers: JobHelpers) => {
        await handler((payload ?? {}) as Record<string, unknown>, helpers);
      }) as Task,
    ]),
  );
}

const minute = (kind: JobKind, match = "* * * * *"): CronItem => ({
  task: kind,
  match,
  identifier: kind,
  // one waiting job per kind: a slow run is not piled on
  options: { jobKey: kind, jobKeyMode: "preserve_run_at", maxAttempts: 1, backfillPeriod: 0 },
});

/**
 * The schedules: each kind every minute (as housekeeping ran them), but the refund sweep hourly
 * (each refund has its own job; record 3564). Lot pictures have none: each lot's job is queued
 * with its pictures.
 */
export const schedules: CronItem[] = [
  { ...minute("sweep_closes"), options: { ...minute("sweep_closes").options, priority: -5 } },
  minute("notices"),
  minute("sweep_refunds", "17 * * * *"),
  minute("prunes"),
  minute("reminders"),
  minute("demo_auctions"),
];
