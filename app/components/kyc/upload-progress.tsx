/** An upload's progress bar, in percent; `showPercent` adds the number below it. */
export function UploadProgress({
  percent,
  showPercent = false,
  className = "mt-3",
}: {
  percent: number;
  showPercent?: boolean;
  className?: string;
}) {
  return (
    <div className={className}>
      <div
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full bg-brand-600 transition-all" style={{ width: `${percent}%` }} />
      </div>
      {showPercent ? <p className="mt-1 text-xs text-slate-600">{percent}%</p> : null}
    </div>
  );
}
