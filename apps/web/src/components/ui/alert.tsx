import type { ReactNode } from 'react';

const tones = {
  error: 'bg-red-50 text-red-800 ring-red-200',
  success: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  info: 'bg-sky-50 text-sky-800 ring-sky-200',
} as const;

/**
 * A message; focusable by script (lib/submit-focus.ts moves focus to a form's outcome).
 * `arrival`: the message a screen opens with, about what just happened elsewhere; focus goes to
 * it when the screen opens (lib/screen-focus.ts).
 */
export function Alert({
  tone,
  arrival = false,
  children,
}: {
  tone: keyof typeof tones;
  arrival?: boolean;
  children: ReactNode;
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      tabIndex={-1}
      data-arrival={arrival || undefined}
      className={`rounded-lg px-4 py-3 text-sm outline-none ring-1 ring-inset focus-visible:ring-2 ${tones[tone]}`}
    >
      {children}
    </div>
  );
}
