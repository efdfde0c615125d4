import { useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import {
  matchRoutes,
  UNSAFE_DataRouterContext,
  UNSAFE_RouteContext,
  useBlocker,
  type BlockerFunction,
} from 'react-router';
import { AbandonUploadDialog, type AbandonReason } from '../components/abandon-upload-dialog.tsx';
import { useUnloadWarning, type VideoUploads } from './upload.ts';

/** A question the place itself asks (closing the composer, opening a draft over its videos). */
type Asked = { reason: Exclude<AbandonReason, 'leave'>; count: number; then: () => void };

export interface UploadGuard {
  /** Runs `then` at once when nothing is sending, else after 'Abandonner' (never after 'Continuer'). */
  ask: (reason: Exclude<AbandonReason, 'leave'>, then: () => void) => void;
  /** 'Abandonner l'envoi ?': render it (after any dialog it must open over). */
  dialog: ReactNode;
}

/**
 * Every place that sends videos (useVideoUploads) calls this once with all its uploads, so that
 * nothing stops them without asking: closing or reloading the tab (the browser's question), an
 * in-app link that would unmount the place (the nav bar, the bell, another screen's tab: ours),
 * and what the place asks through `ask`. 'Abandonner' stops the uploads still sending as ✕ does
 * (aborted, the unfinished upload deleted from the server; finished videos stay) and goes on;
 * `onAbandoned` hears which, to forget what the place kept about them. A navigation that keeps
 * the place mounted (search parameters, a child route of its own: the scheduler's queue and
 * history tabs) does not ask.
 */
export function useUploadGuard(
  uploads: readonly VideoUploads[],
  options: { onAbandoned?: (keys: string[]) => void } = {},
): UploadGuard {
  const sending = uploads.flatMap((set) =>
    set.items.filter((item) => item.status === 'uploading').map((item) => item.key),
  );
  const uploading = sending.length > 0;
  useUnloadWarning(uploading);

  // The route that renders this place: a navigation unmounts it when the next address no longer
  // matches that route. react-router has no public hook for either (useBlocker itself requires
  // the data router whose routes these are).
  const router = useContext(UNSAFE_DataRouterContext)?.router ?? null;
  const routeId = useContext(UNSAFE_RouteContext).matches.at(-1)?.route.id ?? null;
  const shouldBlock = useCallback<BlockerFunction>(
    ({ nextLocation }) =>
      uploading &&
      !(matchRoutes(router?.routes ?? [], nextLocation) ?? []).some(
        (match) => match.route.id === routeId,
      ),
    [uploading, router, routeId],
  );
  const blocker = useBlocker(shouldBlock);
  // Whether the question of the blocked navigation was answered: abandoning ends the uploads
  // before the router's state says 'proceeding', and must not proceed a second time below.
  const answered = useRef(false);
  useEffect(() => {
    if (blocker.state === 'unblocked') answered.current = false;
    // The uploads ended while the question was up: leaving loses nothing any more.
    else if (blocker.state === 'blocked' && !uploading && !answered.current) {
      answered.current = true;
      blocker.proceed();
    }
  }, [blocker, uploading]);

  const [asked, setAsked] = useState<Asked | null>(null);
  const ask = useCallback(
    (reason: Asked['reason'], then: () => void) => {
      if (sending.length > 0) setAsked({ reason, count: sending.length, then });
      else then();
    },
    [sending.length],
  );

  const latest = useRef({ uploads, sending, onAbandoned: options.onAbandoned });
  latest.current = { uploads, sending, onAbandoned: options.onAbandoned };
  const abandon = () => {
    latest.current.uploads.forEach((set) => set.abandon());
    latest.current.onAbandoned?.(latest.current.sending);
  };

  const dialog =
    blocker.state === 'blocked' ? (
      <AbandonUploadDialog
        uploading={uploading ? sending.length : null}
        reason="leave"
        onKeep={() => {
          answered.current = true;
          blocker.reset();
        }}
        onAbandon={() => {
          answered.current = true;
          abandon();
          blocker.proceed();
        }}
      />
    ) : (
      <AbandonUploadDialog
        uploading={asked?.count ?? null}
        reason={asked?.reason ?? 'close'}
        onKeep={() => setAsked(null)}
        onAbandon={() => {
          abandon();
          setAsked(null);
          asked?.then();
        }}
      />
    );
  return { ask, dialog };
}
