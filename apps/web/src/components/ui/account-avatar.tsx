import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const sizes = {
  lg: { box: 'h-12 w-12', initial: 'text-lg' },
  // Beside the username (the account pickers): decorative, the name is already there.
  sm: { box: 'h-6 w-6', initial: 'text-xs' },
} as const;

/**
 * TikTok's picture once connected; the username's initial otherwise, or when the picture fails to
 * load (TikTok's avatar URLs are signed and expire).
 */
export function AccountAvatar({
  username,
  displayName,
  avatarUrl,
  size = 'lg',
}: {
  username: string;
  displayName: string | null;
  avatarUrl: string | null;
  size?: keyof typeof sizes;
}) {
  const { t } = useTranslation();
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const base = `${sizes[size].box} shrink-0 rounded-full`;
  if (avatarUrl && failedUrl !== avatarUrl) {
    return (
      <img
        src={avatarUrl}
        alt={size === 'sm' ? '' : t('accounts.card.avatarAlt', { name: displayName ?? username })}
        className={`${base} bg-slate-100 object-cover ring-2 ring-white shadow-sm`}
        referrerPolicy="no-referrer"
        onError={() => setFailedUrl(avatarUrl)}
      />
    );
  }
  const initial = (username.replace(/^@/, '').at(0) ?? '?').toUpperCase();
  return (
    <span
      className={`${base} flex items-center justify-center bg-gradient-to-br from-brand-500 to-accent-500 ${sizes[size].initial} font-semibold text-white`}
      aria-hidden="true"
    >
      {initial}
    </span>
  );
}
