/**
 * A labelled progress bar (0–100). The track's size and colours come from `className`, the
 * filled part's from `barClassName`; `valueText` says the state in words when a number alone
 * would mislead ('Vérification…' at 100 %).
 */
export function ProgressBar({
  label,
  percent,
  valueText,
  className = 'h-1.5 bg-slate-100',
  barClassName = 'bg-gradient-to-r from-brand-500 to-accent-500 duration-500',
}: {
  label: string;
  percent: number;
  valueText?: string;
  className?: string;
  barClassName?: string;
}) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={valueText}
      className={`overflow-hidden rounded-full ${className}`}
    >
      <div
        className={`h-full rounded-full transition-[width] ${barClassName}`}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
