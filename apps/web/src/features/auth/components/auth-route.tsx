import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useDropSearchParams } from '../../../lib/drop-search-params.ts';
import { AuthPage } from './auth-page.tsx';

/**
 * Set by 'Supprimer mon compte' on its way here (`/auth?deleted=1`): read once, then dropped, so
 * a reload or a Back does not say it again.
 */
const readOnce = ['deleted'] as const;

/** /auth inside the app (after signing out, or sent there by a guard): led by the router. */
export function AuthRoute() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [accountDeleted] = useState(() => searchParams.has('deleted'));
  useDropSearchParams(readOnce);
  return <AuthPage navigate={navigate} accountDeleted={accountDeleted} />;
}
