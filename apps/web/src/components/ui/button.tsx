import type { ComponentProps } from 'react';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

// A pending button (aria-disabled) looks disabled too: see Button's `pending`.
const variants: Record<Variant, string> = {
  primary:
    'bg-slate-900 text-white hover:bg-slate-800 disabled:bg-slate-400 aria-disabled:bg-slate-400 shadow-sm shadow-slate-900/10',
  secondary:
    'bg-white text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:text-slate-400 aria-disabled:text-slate-400',
  ghost:
    'text-slate-600 hover:bg-slate-100 hover:text-slate-900 disabled:text-slate-300 aria-disabled:text-slate-300',
  danger: 'bg-red-600 text-white hover:bg-red-700 disabled:bg-red-300 aria-disabled:bg-red-300',
};

export function buttonClassName(variant: Variant = 'primary', extra = ''): string {
  return `inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold transition-colors disabled:cursor-not-allowed aria-disabled:cursor-not-allowed ${variants[variant]} ${extra}`;
}

/**
 * `pending`: unavailable for now (a request running, nothing to act on), said with aria-disabled
 * instead of `disabled`, which would drop the keyboard focus to <body> under the person who just
 * pressed it. A click, or Enter in the form, does nothing meanwhile.
 */
export function Button({
  variant = 'primary',
  className = '',
  type = 'button',
  pending = false,
  onClick,
  ...props
}: ComponentProps<'button'> & { variant?: Variant; pending?: boolean }) {
  return (
    <button
      type={type}
      className={buttonClassName(variant, className)}
      aria-disabled={pending || undefined}
      onClick={(event) => {
        // Cancelling the click also cancels the form submission it would start.
        if (pending) event.preventDefault();
        else onClick?.(event);
      }}
      {...props}
    />
  );
}
