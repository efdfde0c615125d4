import type { ReactNode } from 'react';

// Stroke icons in the style of the header's; decorative (the control around them carries the
// name), so hidden from assistive technology. Feature-only icons build on `Icon` in their feature.

export type IconProps = { className?: string };

/** A 24×24 stroke icon drawn from path data and/or child shapes; `className` defaults to h-4 w-4. */
export function Icon({
  className = 'h-4 w-4',
  d = [],
  children,
}: IconProps & { d?: string | string[]; children?: ReactNode }) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {(Array.isArray(d) ? d : [d]).map((path) => (
        <path key={path} d={path} />
      ))}
      {children}
    </svg>
  );
}

export const PlusIcon = (props: IconProps) => <Icon {...props} d="M12 5v14M5 12h14" />;
export const XIcon = (props: IconProps) => <Icon {...props} d="M6 6l12 12M18 6 6 18" />;
export const CheckIcon = (props: IconProps) => <Icon {...props} d="M5 13l4 4L19 7" />;
export const AlertIcon = (props: IconProps) => (
  <Icon
    {...props}
    d={[
      'M12 9v4M12 17h.01',
      'M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z',
    ]}
  />
);
export const CalendarIcon = (props: IconProps) => (
  <Icon
    {...props}
    d={[
      'M8 3v4M16 3v4M3 10h18',
      'M5 5h14a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2z',
    ]}
  />
);
export const TrashIcon = (props: IconProps) => (
  <Icon
    {...props}
    d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3"
  />
);
export const LinkIcon = (props: IconProps) => (
  <Icon
    {...props}
    d={[
      'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1',
      'M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
    ]}
  />
);
export const RefreshIcon = (props: IconProps) => (
  <Icon {...props} d="M20 11a8 8 0 0 0-14.9-3M4 4v4h4M4 13a8 8 0 0 0 14.9 3M20 20v-4h-4" />
);
export const UploadIcon = (props: IconProps) => (
  <Icon {...props} d={['M12 16V4', 'M7 9l5-5 5 5', 'M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3']} />
);
export const DownloadIcon = (props: IconProps) => (
  <Icon {...props} d={['M12 4v12', 'M7 11l5 5 5-5', 'M4 20h16']} />
);
export const FilmIcon = (props: IconProps) => (
  <Icon
    {...props}
    d={['M4 4h16v16H4z', 'M8 4v16', 'M16 4v16', 'M4 8h4', 'M4 16h4', 'M16 8h4', 'M16 16h4']}
  />
);
export const SparklesIcon = (props: IconProps) => (
  <Icon
    {...props}
    d={[
      'M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8z',
      'M19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z',
    ]}
  />
);
/** A cog: the account settings. */
export const SettingsIcon = (props: IconProps) => (
  <Icon
    {...props}
    d="M12.22 2h-.44a2 2 0 0 0-2 2v.18a2 2 0 0 1-1 1.73l-.43.25a2 2 0 0 1-2 0l-.15-.08a2 2 0 0 0-2.73.73l-.22.38a2 2 0 0 0 .73 2.73l.15.1a2 2 0 0 1 1 1.72v.51a2 2 0 0 1-1 1.74l-.15.09a2 2 0 0 0-.73 2.73l.22.38a2 2 0 0 0 2.73.73l.15-.08a2 2 0 0 1 2 0l.43.25a2 2 0 0 1 1 1.73V20a2 2 0 0 0 2 2h.44a2 2 0 0 0 2-2v-.18a2 2 0 0 1 1-1.73l.43-.25a2 2 0 0 1 2 0l.15.08a2 2 0 0 0 2.73-.73l.22-.39a2 2 0 0 0-.73-2.73l-.15-.08a2 2 0 0 1-1-1.74v-.5a2 2 0 0 1 1-1.74l.15-.09a2 2 0 0 0 .73-2.73l-.22-.38a2 2 0 0 0-2.73-.73l-.15.08a2 2 0 0 1-2 0l-.43-.25a2 2 0 0 1-1-1.73V4a2 2 0 0 0-2-2z"
  >
    <circle cx="12" cy="12" r="3" />
  </Icon>
);
