import { useId, type ReactNode } from 'react';

/** One block of the settings page: a titled section in a white card. */
export function SettingsCard({
  id,
  title,
  description,
  children,
}: {
  /** Anchor of the section (an email links to /settings#data-export). */
  id?: string;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <section
      id={id}
      aria-labelledby={titleId}
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
      <div className="mt-5">{children}</div>
    </section>
  );
}
