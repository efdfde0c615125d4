import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullScreenSpinner } from '../components/ui/spinner.tsx';
import { saveTimeZone, useMe } from '../lib/me.ts';
import { queryKeys } from '../lib/query-keys.ts';
import { browserTimeZone } from '../lib/time-zone.ts';
import { AppLayout } from './layout.tsx';

/** Signed-in area: spinner while the session resolves, /auth when signed out. */
export function RequireAuth() {
  const me = useMe();
  const location = useLocation();
  const queryClient = useQueryClient();
  const missingTimeZone = me.data?.timeZone === null;
  useEffect(() => {
    if (!missingTimeZone) return;
    saveTimeZone(browserTimeZone()).then(
      (updated) => queryClient.setQueryData(queryKeys.me, updated),
      () => undefined, // Tried again on the next visit; times show in the browser's zone meanwhile.
    );
  }, [missingTimeZone, queryClient]);
  if (me.isPending) return <FullScreenSpinner />;
  if (me.isError) throw me.error;
  if (!me.data) return <Navigate to="/auth" replace state={{ from: location.pathname }} />;
  return (
    <AppLayout me={me.data}>
      <Outlet />
    </AppLayout>
  );
}

/** /auth: signed-in people go straight to their accounts. */
export function RedirectIfSignedIn() {
  const me = useMe();
  if (me.isPending) return <FullScreenSpinner />;
  if (me.data) return <Navigate to="/tiktok" replace />;
  return <Outlet />;
}
