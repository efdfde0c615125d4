import type { ComponentProps } from 'react';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

// A pending button (aria-disabled) looks disabled too: see Button's `pending`. It stays focusable
// and named, so its words stay readable (4.5:1, as axe checks): white on slate-500 is 4.8:1,
// slate-500 on white 4.8:1, where slate-400 read 2.6:1 and red-300 1.9:1. A busy danger button
// turns the same grey: unavailable, whatever it would do.
const variants: Record<Variant, string> = {
  primary:
    'bg-slate-900 text-white hover:bg-slate-800 disabled:bg-slate-500 aria-disabled:bg-slate-500 shadow-sm shadow-slate-900/10',
  secondary:
    'bg-white text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:text-slate-500 aria-disabled:text-slate-500',
  ghost:
    'text-slate-600 hover:bg-slate-100 hover:text-slate-900 disabled:text-slate-500 aria-disabled:text-slate-500',
  danger: 'bg-red-600 text-white hover:bg-red-700 disabled:bg-slate-500 aria-disabled:bg-slate-500',
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
