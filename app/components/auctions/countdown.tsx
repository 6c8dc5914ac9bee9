import { useEffect, useState } from "react";

export function formatRemaining(ms: number) {
  if (ms <= 0) return "0s";
  const total = Math.floor(ms / 1000);
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (days > 0) return `${days}d ${hours}h ${minutes}m`;
  if (hours > 0) return `${hours}h ${minutes}m ${String(seconds).padStart(2, "0")}s`;
  return `${minutes}m ${String(seconds).padStart(2, "0")}s`;
}

/**
 * Counts to the server's timestamps; the server's clock offset is measured from `serverTime` (the
 * page's, then each live event's: docs/decisions/1801), so an extended end shows at once.
 */
export function Countdown({
  startsAt,
  endsAt,
  serverTime,
  className = "",
}: {
  startsAt: string;
  endsAt: string;
  serverTime: string;
  className?: string;
}) {
  const [offset, setOffset] = useState(() => new Date(serverTime).getTime() - Date.now());
  const [at, setAt] = useState(() => new Date(serverTime).getTime());
  // eslint-disable-next-line react-hooks/set-state-in-effect -- the browser's clock is outside React
  useEffect(() => setOffset(new Date(serverTime).getTime() - Date.now()), [serverTime]);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the browser's clock is outside React
    setAt(Date.now() + offset);
    const timer = setInterval(() => setAt(Date.now() + offset), 1000);
    return () => clearInterval(timer);
  }, [offset]);
  const starts = new Date(startsAt).getTime();
  const ends = new Date(endsAt).getTime();
  const text =
    at >= ends
      ? "Ended"
      : at < starts
        ? `Starts in ${formatRemaining(starts - at)}`
        : `Ends in ${formatRemaining(ends - at)}`;
  return (
    <time dateTime={at < starts ? startsAt : endsAt} className={className}>
      {text}
    </time>
  );
}
