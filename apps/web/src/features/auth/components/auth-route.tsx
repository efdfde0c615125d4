import { useNavigate } from 'react-router';
import { AuthPage } from './auth-page.tsx';

/** /auth inside the app (after signing out, or sent there by a guard): led by the router. */
export function AuthRoute() {
  const navigate = useNavigate();
  return <AuthPage navigate={navigate} />;
}
