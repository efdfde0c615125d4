import { Navigate, Outlet, useLocation } from 'react-router';
import { FullScreenSpinner } from '../components/ui/spinner.tsx';
import { useMe } from '../lib/me.ts';
import { AppLayout } from './layout.tsx';

/** Signed-in area: spinner while the session resolves, /auth when signed out. */
export function RequireAuth() {
  const me = useMe();
  const location = useLocation();
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
