export function BrandMark({ className = 'h-8 w-8' }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 64 64" aria-hidden="true">
      <defs>
        <linearGradient id="cadence-brand" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#ec4899" />
          <stop offset="1" stopColor="#06b6d4" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="16" fill="url(#cadence-brand)" />
      <path d="M17 19.5 35 32 17 44.5z" fill="#fff" />
      <path d="M42 24v16M50 28.5v7" stroke="#fff" strokeWidth="5" strokeLinecap="round" />
    </svg>
  );
}
