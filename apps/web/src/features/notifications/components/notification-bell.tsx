import { failReasonKey } from '@cadence/shared/fail-reason-keys';
import { failRemedy } from '@cadence/shared/publish-fail-reasons';
import {
  notificationSchema,
  notificationSentenceKey,
  type Notification,
  type NotificationData,
  type NotificationList,
  type NotificationType,
} from '@cadence/shared/schemas/notification';
import type { TranslationKey } from '@cadence/shared/translation-key';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '../../../components/ui/icons.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useLanguage } from '../../../lib/i18n.ts';
import { useTimeZone } from '../../../lib/use-time-zone.ts';
import { useAfterFirstPaint } from '../../../lib/after-first-paint.ts';
import { useLiveEvent } from '../../../lib/live-events.tsx';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useNotifications } from '../api/get-notifications.ts';
import { useMarkNotificationsRead } from '../api/mark-notifications-read.ts';

const BellIcon = ({ className }: { className?: string }) => (
  <Icon
    className={className}
    d={['M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9', 'M10.3 21a1.94 1.94 0 0 0 3.4 0']}
  />
);

/** Adds a notification pushed by the stream to the cached list (once), counting it unread. */
export function addNotification(list: NotificationList, incoming: Notification): NotificationList {
  if (list.notifications.some((notification) => notification.id === incoming.id)) return list;
  return {
    notifications: [incoming, ...list.notifications],
    unread: list.unread + (incoming.read ? 0 : 1),
  };
}

/**
 * The bell's list: asked for once the first screen is painted, kept current by the stream's
 * `notification` events (fetched again when the stream reconnects), polled while it is down.
 */
function useBellNotifications() {
  const queryClient = useQueryClient();
  const live = useLiveEvent(
    'notification',
    (data) => {
      const parsed = notificationSchema.safeParse(data);
      if (!parsed.success) return;
      const current = queryClient.getQueryData<NotificationList>(queryKeys.notifications.list);
      if (current)
        queryClient.setQueryData(
          queryKeys.notifications.list,
          addNotification(current, parsed.data),
        );
      else
        void queryClient.invalidateQueries({ queryKey: queryKeys.notifications.list, exact: true });
    },
    () =>
      void queryClient.invalidateQueries({ queryKey: queryKeys.notifications.list, exact: true }),
  );
  // The count is not what the page is opened for: it is asked for once the screen is painted.
  return useNotifications({ poll: !live, enabled: useAfterFirstPaint() });
}

/**
 * The header's bell: an icon button with the unread count, opening a panel of the latest events.
 * New ones arrive live (the `notification` events of the stream); opening marks them read.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const list = useBellNotifications();
  const markRead = useMarkNotificationsRead();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const unread = list.data?.unread ?? 0;

  // Escape and a click elsewhere close the panel (the disclosure pattern); Escape refocuses the bell.
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && !root.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open]);

  function toggle() {
    const opening = !open;
    setOpen(opening);
    if (opening && unread > 0) markRead.mutate();
  }

  return (
    // On phones the panel hangs from the header (the sticky <header> is its containing block), full
    // width less a margin; from xl, from the bell itself.
    <div ref={root} className="xl:relative">
      <button
        type="button"
        ref={button}
        onClick={toggle}
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={
          unread > 0
            ? t('settings.notifications.bell.labelUnread', { count: unread })
            : t('settings.notifications.bell.label')
        }
        title={t('settings.notifications.bell.label')}
        data-testid="notification-bell"
        className={`relative rounded-lg p-1.5 transition ${open ? 'bg-white/10 text-white' : 'text-slate-300 hover:bg-white/5 hover:text-white'}`}
      >
        <BellIcon className="h-5 w-5" />
        {unread > 0 && (
          <span
            aria-hidden="true"
            data-testid="notification-count"
            className="absolute -right-0.5 -top-0.5 min-w-[1.125rem] rounded-full bg-red-600 px-1 text-center text-[11px] font-bold leading-[1.125rem] text-white"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && <NotificationPanel id={panelId} list={list} onNavigate={() => setOpen(false)} />}
    </div>
  );
}

/** The bell's panel: the latest notifications, or why there are none. */
function NotificationPanel({
  id,
  list,
  onNavigate,
}: {
  id: string;
  list: ReturnType<typeof useNotifications>;
  onNavigate: () => void;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  return (
    <section
      id={id}
      data-testid="notification-panel"
      aria-label={t('settings.notifications.bell.title')}
      className="absolute inset-x-4 top-full z-40 mt-2 overflow-hidden xl:left-auto xl:right-0 xl:w-[22rem] rounded-xl bg-white text-slate-900 shadow-xl ring-1 ring-slate-200"
    >
      <h2 className="border-b border-slate-200 px-4 py-3 text-sm font-semibold">
        {t('settings.notifications.bell.title')}
      </h2>
      {list.isError ? (
        <p className="px-4 py-6 text-sm text-slate-700">
          {t('settings.notifications.bell.loadError')}
        </p>
      ) : list.data && list.data.notifications.length > 0 ? (
        <ul className="max-h-[min(28rem,70vh)] divide-y divide-slate-100 overflow-y-auto">
          {list.data.notifications.map((notification) => (
            <NotificationItem
              key={notification.id}
              notification={notification}
              language={language}
              onNavigate={onNavigate}
            />
          ))}
        </ul>
      ) : (
        <p className="px-4 py-6 text-sm text-slate-700">{t('settings.notifications.bell.empty')}</p>
      )}
    </section>
  );
}

type BellAction = { to: string; label: TranslationKey } | null;

/** Opens the post a notification names, in the list it is in now. */
const openPost =
  (list: 'queue' | 'history', label: TranslationKey = 'settings.notifications.bell.open') =>
  (data: NotificationData): BellAction =>
    data.postId
      ? {
          to: `/scheduler${list === 'history' ? '/history' : ''}?post=${encodeURIComponent(data.postId)}`,
          label,
        }
      : null;

/**
 * Where each notification leads, by type: a new type cannot be added without saying (a
 * published post had no link, so the creator could not open the post it named).
 */
const notificationActions: Record<NotificationType, (data: NotificationData) => BellAction> = {
  // Rescheduling cannot help a post whose video or settings must change (failRemedy).
  post_failed: (data) =>
    openPost(
      'history',
      failRemedy(data.failReason ?? null) === 'schedule_again'
        ? 'settings.notifications.bell.open'
        : 'settings.notifications.bell.reschedule',
    )(data),
  post_published: openPost('history'),
  post_sent_to_inbox: openPost('history'),
  // Still to come: it is in the queue.
  post_postponed: openPost('queue'),
  account_reconnect_needed: () => ({
    to: '/tiktok',
    label: 'settings.notifications.bell.reconnect',
  }),
  token_refresh_failed: () => ({ to: '/tiktok', label: 'settings.notifications.bell.reconnect' }),
  story_ready: () => ({ to: '/stories', label: 'settings.notifications.bell.open' }),
  compilation_ready: (data) => ({
    to: data.analysisId ? `/memes?analysis=${encodeURIComponent(data.analysisId)}` : '/memes',
    label: 'settings.notifications.bell.open',
  }),
};

function NotificationItem({
  notification,
  language,
  onNavigate,
}: {
  notification: Notification;
  language: 'fr' | 'en';
  onNavigate: () => void;
}) {
  const { t } = useTranslation();
  const { timeZone } = useTimeZone();
  const { type, data } = notification;
  const text = t(notificationSentenceKey(type, data), {
    handle: data.account ?? '',
    caption: data.caption ?? '',
    reason: t(failReasonKey(data.failReason ?? null)),
    date: data.dueAt ? formatDateTime(data.dueAt, language, timeZone) : '',
  });
  const action = notificationActions[type](data);
  return (
    <li
      className={`px-4 py-3 text-sm ${notification.read ? '' : 'bg-brand-50'}`}
      data-testid="notification-item"
      data-type={type}
    >
      <p className="text-slate-900">{text}</p>
      <div className="mt-1 flex items-center justify-between gap-3">
        <time dateTime={notification.createdAt} className="text-xs text-slate-600">
          {formatDateTime(notification.createdAt, language, timeZone)}
        </time>
        {action && (
          <Link
            to={action.to}
            onClick={onNavigate}
            className="shrink-0 text-sm font-semibold text-brand-700 underline-offset-2 hover:underline"
          >
            {t(action.label)}
          </Link>
        )}
      </div>
    </li>
  );
}
